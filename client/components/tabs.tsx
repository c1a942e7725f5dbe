import type { KeyboardEvent } from 'react'

type TabsProps<T extends string> = {
  label: string
  tabs: readonly { value: T; label: string }[]
  value: T
  onChange: (value: T) => void
  /** The id of the panel the tabs control. */
  panel: string
}

/** A row of tabs as WAI-ARIA describes them: one Tab stop, the arrow keys move between them. */
export function Tabs<T extends string>({ label, tabs, value, onChange, panel }: TabsProps<T>) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (step === 0) return
    event.preventDefault()
    const at = tabs.findIndex((tab) => tab.value === value)
    const next = tabs[(at + step + tabs.length) % tabs.length]
    if (!next) return
    onChange(next.value)
    event.currentTarget.querySelector<HTMLElement>(`[data-tab="${next.value}"]`)?.focus()
  }
  return (
    <div role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.value}
          type="button"
          role="tab"
          data-tab={tab.value}
          aria-selected={tab.value === value}
          aria-controls={panel}
          tabIndex={tab.value === value ? 0 : -1}
          className={tab.value === value ? 'tab is-active' : 'tab'}
          onClick={() => onChange(tab.value)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}
