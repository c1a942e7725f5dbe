import { useState, type KeyboardEvent } from 'react'
import type { Suggestion } from '../lib/typeahead.js'
import { Avatar } from './avatar.js'

const optionKey = (option: Suggestion) => (option.kind === 'person' ? `@${option.username}` : `#${option.tag}`)

/** The id of an option, for the field's aria-activedescendant. */
export const optionId = (listId: string, index: number) => `${listId}-option-${index}`

type TypeaheadListProps = {
  id: string
  label: string
  options: readonly Suggestion[]
  active: number
  onPick: (picked: Suggestion) => void
}

/**
 * The suggestions under a field, as a WAI-ARIA listbox: the field keeps the focus and points at the
 * active option (aria-activedescendant); a click picks without taking the focus from the field.
 */
export function TypeaheadList({ id, label, options, active, onPick }: TypeaheadListProps) {
  return (
    <ul role="listbox" id={id} aria-label={label} className="typeahead">
      {options.map((option, index) => (
        <li
          key={optionKey(option)}
          id={optionId(id, index)}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'typeahead-option is-active' : 'typeahead-option'}
          onMouseDown={(event) => {
            event.preventDefault()
            onPick(option)
          }}
        >
          {option.kind === 'person' ? (
            <>
              <Avatar src={option.avatarURL} name={option.name} size="xs" decorative />
              <span className="typeahead-text">
                <span className="typeahead-name">{option.name}</span>
                <span className="typeahead-detail">@{option.username}</span>
              </span>
            </>
          ) : (
            <span className="typeahead-text">
              <span className="typeahead-name">#{option.tag}</span>
              <span className="typeahead-detail">
                {option.posts} {option.posts === 1 ? 'post' : 'posts'} this week
              </span>
            </span>
          )}
        </li>
      ))}
    </ul>
  )
}

/**
 * The keys of a field with suggestions: the arrows move through them, Enter or Tab picks the active one,
 * Escape closes them. `onKeyDown` says whether it used the key, so the field's own keys come after.
 */
export function useTypeaheadKeys(
  options: readonly Suggestion[],
  onPick: (picked: Suggestion) => void,
  onClose: () => void,
) {
  const [active, setActive] = useState(-1)
  const signature = options.map(optionKey).join(' ')
  const [shown, setShown] = useState(signature)
  if (shown !== signature) {
    // New suggestions: none is chosen until the reader moves to one.
    setShown(signature)
    setActive(-1)
  }
  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (options.length === 0) return false
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
    if (step !== 0) {
      event.preventDefault()
      setActive((at) => (at + step + options.length + (at === -1 && step === -1 ? 1 : 0)) % options.length)
      return true
    }
    const picked = options[active]
    if ((event.key === 'Enter' || event.key === 'Tab') && picked) {
      event.preventDefault()
      onPick(picked)
      return true
    }
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onClose()
      return true
    }
    return false
  }
  return { active, onKeyDown }
}
