import { useEffect, type KeyboardEvent } from 'react'
import { SmileIcon } from './icons.js'
import { CustomEmoji } from './rich-text.js'
import type { EmojiUse } from '../../common/custom-emoji.js'
import { moveFocus, usePopover } from './use-popover.js'

/** 23 emojis, each with a name for screen readers. */
const EMOJIS: readonly (readonly [emoji: string, name: string])[] = [
  ['😀', 'grinning face'],
  ['😂', 'tears of joy'],
  ['😍', 'heart eyes'],
  ['🥰', 'smiling with hearts'],
  ['😎', 'sunglasses'],
  ['🤔', 'thinking face'],
  ['😮', 'surprised face'],
  ['😢', 'crying face'],
  ['😡', 'angry face'],
  ['🥳', 'party face'],
  ['👍', 'thumbs up'],
  ['👏', 'clapping hands'],
  ['🙌', 'raised hands'],
  ['🙏', 'folded hands'],
  ['💪', 'flexed biceps'],
  ['🔥', 'fire'],
  ['🎉', 'party popper'],
  ['❤️', 'red heart'],
  ['💯', 'hundred points'],
  ['✨', 'sparkles'],
  ['🚀', 'rocket'],
  ['☕', 'hot beverage'],
  ['🐦', 'bird'],
]

const ITEM = '.emoji-option'

/**
 * A button that opens a grid of emojis, the community's custom emoji (`custom`) first; picking one hands it
 * to `onPick` (a custom one as `:shortcode:`) and closes the grid.
 */
export function EmojiPicker({
  onPick,
  custom = [],
}: {
  onPick: (emoji: string) => void
  custom?: readonly EmojiUse[] | undefined
}) {
  const { open, setOpen, close, buttonRef, panelRef } = usePopover<HTMLDivElement>()

  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLElement>(ITEM)?.focus()
  }, [open, panelRef])

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (moveFocus(event.currentTarget, event.key, ITEM)) event.preventDefault()
  }

  return (
    <div className="popover-anchor">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button accent"
        aria-label="Add emoji"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <SmileIcon />
      </button>
      {open && (
        <div ref={panelRef} className="emoji-grid" role="group" aria-label="Emojis" onKeyDown={onKey}>
          {custom.map(({ shortcode, url }) => (
            <button
              key={`:${shortcode}:`}
              type="button"
              className="emoji-option"
              aria-label={`:${shortcode}:`}
              onClick={() => {
                onPick(`:${shortcode}:`)
                close(true)
              }}
            >
              <CustomEmoji shortcode={shortcode} url={url} />
            </button>
          ))}
          {EMOJIS.map(([emoji, name]) => (
            <button
              key={emoji}
              type="button"
              className="emoji-option"
              aria-label={name}
              title={name}
              onClick={() => {
                onPick(emoji)
                close(true)
              }}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
