import { useId } from 'react'

type SortDropdownProps<S extends string> = { options: readonly S[]; value: S; onChange: (sort: S) => void }

/** The home feed's order: a native select, so keyboard and screen readers work as everywhere else. */
export function SortDropdown<S extends string>({ options, value, onChange }: SortDropdownProps<S>) {
  const id = useId()
  return (
    <div className="sort-dropdown">
      <label htmlFor={id}>Sort by</label>
      <select
        id={id}
        value={value}
        onChange={(e) => {
          const chosen = options.find((o) => o === e.currentTarget.value)
          if (chosen) onChange(chosen)
        }}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  )
}
