import { useEffect, useId, type KeyboardEvent, type ReactNode } from 'react'
import { Link } from 'wouter'
import { DotsIcon } from './icons.js'
import { moveFocus, usePopover } from './use-popover.js'

/**
 * An action (`onSelect`) or a place to go (`href`, a real link, so it opens in a new tab too). An action
 * that cannot be taken here says why (`unavailable`), and stays in the menu, focusable but inert.
 */
export type MenuItem = { label: string; danger?: boolean } & (
  { onSelect: () => void; unavailable?: string } | { href: string }
)

type MenuProps = {
  label: string
  items: MenuItem[]
  /** What the button shows; three dots unless given. */
  trigger?: ReactNode
  className?: string
  /** The button's own class, when it should look like something else than a menu trigger (an action of a post). */
  triggerClassName?: string
}

const ITEM = '[role="menuitem"]'

/** A menu button (WAI-ARIA menu button), three dots by default: arrows move, Escape closes and refocuses the button. */
export function Menu({ label, items, trigger, className, triggerClassName }: MenuProps) {
  const { open, setOpen, close, buttonRef, panelRef } = usePopover<HTMLUListElement>()
  const menuId = useId()

  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLElement>(ITEM)?.focus()
  }, [open, panelRef])

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      setOpen(true)
    }
  }
  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key === 'Tab') close(false)
    else if (moveFocus(event.currentTarget, event.key, ITEM)) event.preventDefault()
  }

  return (
    <div className={className ? `menu ${className}` : 'menu'}>
      <button
        ref={buttonRef}
        type="button"
        className={triggerClassName ?? (trigger ? 'menu-trigger' : 'icon-button')}
        aria-label={trigger ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={onButtonKey}
      >
        {trigger ?? <DotsIcon />}
      </button>
      {open && (
        <ul ref={panelRef} id={menuId} className="menu-list" role="menu" aria-label={label} onKeyDown={onMenuKey}>
          {items.map((item) => (
            <li key={item.label} role="none">
              {'href' in item ? (
                <Link href={item.href} role="menuitem" tabIndex={-1} className="menu-item" onClick={() => close(false)}>
                  {item.label}
                </Link>
              ) : item.unavailable ? (
                <button type="button" role="menuitem" tabIndex={-1} className="menu-item is-unavailable" aria-disabled>
                  {item.label}
                  <span className="menu-item-note">{item.unavailable}</span>
                </button>
              ) : (
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={item.danger ? 'menu-item is-danger' : 'menu-item'}
                  onClick={() => {
                    close(true)
                    item.onSelect()
                  }}
                >
                  {item.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
