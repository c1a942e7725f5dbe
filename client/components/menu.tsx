import { useEffect, useId, type KeyboardEvent } from 'react'
import { DotsIcon } from './icons.js'
import { moveFocus, usePopover } from './use-popover.js'

export type MenuItem = { label: string; onSelect: () => void; danger?: boolean }

const ITEM = '[role="menuitem"]'

/** A three-dots menu button (WAI-ARIA menu button): arrows move, Escape closes and refocuses the button. */
export function Menu({ label, items }: { label: string; items: MenuItem[] }) {
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
    <div className="menu">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={onButtonKey}
      >
        <DotsIcon />
      </button>
      {open && (
        <ul ref={panelRef} id={menuId} className="menu-list" role="menu" aria-label={label} onKeyDown={onMenuKey}>
          {items.map((item) => (
            <li key={item.label} role="none">
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
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
