import { useId, type InputHTMLAttributes } from 'react'

type TextFieldProps = { label: string } & InputHTMLAttributes<HTMLInputElement>

/** A labelled input for the auth forms. */
export function TextField({ label, ...input }: TextFieldProps) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
    </div>
  )
}
