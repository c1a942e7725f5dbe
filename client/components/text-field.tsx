import { useId, type InputHTMLAttributes } from 'react'

type TextFieldProps = {
  label: string
  /** Told the new text on each change: the shorter way for a form that keeps only the value. */
  onValue?: ((value: string) => void) | undefined
  /** Shown under the input, which is then marked invalid. */ error?: string | undefined
  /** The id of a hint elsewhere that describes the input, before its error. */
  hint?: string | undefined
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'aria-describedby'>

/** A labelled input for the auth forms. */
export function TextField({ label, error, hint, onValue, ...input }: TextFieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  const describedBy = [hint, error ? errorId : undefined].filter(Boolean).join(' ')
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...(onValue ? { onChange: (event) => onValue(event.currentTarget.value) } : {})}
        {...input}
      />
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
