import { useId, useState } from 'react'
import type { Suggestion } from '../lib/typeahead.js'
import { SearchIcon } from './icons.js'
import { optionId, TypeaheadList, useTypeaheadKeys } from './typeahead-list.js'
import { LIMITS } from '../../common/limits.js'

type SearchBoxProps = {
  value: string
  onChange: (value: string) => void
  /** Enter: search now rather than after the pause in typing. */
  onSubmit: () => void
  /** People (or, after `#`, tags) whose names begin with what is typed. */
  suggestions?: readonly Suggestion[]
  /** A suggestion picked: open that person or tag. */
  onPick?: (picked: Suggestion) => void
  /** The suggestions are closed (Escape, or the focus left). */
  onDismiss?: () => void
  className?: string
}

const none: readonly Suggestion[] = []

/**
 * The search field: a search landmark, a label for screen readers, and at most the characters the
 * server takes. As a WAI-ARIA combobox it offers people and tags as they are typed: the arrows move
 * through them, Enter opens the one chosen, and Enter with none chosen searches.
 */
export function SearchBox({
  value,
  onChange,
  onSubmit,
  suggestions = none,
  onPick = () => {},
  onDismiss = () => {},
  className = '',
}: SearchBoxProps) {
  const id = useId()
  const listId = useId()
  const keys = useTypeaheadKeys(suggestions, onPick, onDismiss)
  // The frame may hold two boxes sharing one text (a phone's top bar, the side column): the focused one lists.
  const [focused, setFocused] = useState(false)
  const open = focused && suggestions.length > 0
  return (
    <form
      role="search"
      className={`search-box ${className}`.trim()}
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit()
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Search Chirp
      </label>
      <SearchIcon />
      <input
        id={id}
        type="search"
        role="combobox"
        placeholder="Search"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={LIMITS.searchQuery}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open && keys.active >= 0 ? optionId(listId, keys.active) : undefined}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (open) keys.onKeyDown(event)
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false)
          onDismiss()
        }}
      />
      {open && (
        <TypeaheadList id={listId} label="Suggestions" options={suggestions} active={keys.active} onPick={onPick} />
      )}
    </form>
  )
}
