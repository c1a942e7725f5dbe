import { useId, type InputHTMLAttributes } from 'react'

type TextFieldProps = {
  label: string
  /** Shown under the input, which is then marked invalid. */ error?: string | undefined
} & InputHTMLAttributes<HTMLInputElement>

/** A labelled input for the auth forms. */
export function TextField({ label, error, ...input }: TextFieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
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
