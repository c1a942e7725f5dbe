import { useId } from 'react'
import { SearchIcon } from './icons.js'

type SearchBoxProps = {
  value: string
  onChange: (value: string) => void
  /** Enter: search now rather than after the pause in typing. */
  onSubmit: () => void
  className?: string
}

/** The search field: a search landmark, a label for screen readers, and at most the 100 characters the server takes. */
export function SearchBox({ value, onChange, onSubmit, className = '' }: SearchBoxProps) {
  const id = useId()
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
        placeholder="Search"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={100}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </form>
  )
}
