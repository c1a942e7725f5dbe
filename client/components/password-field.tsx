import { TextField } from './text-field.js'

type PasswordFieldProps = {
  label: string
  value: string
  onChange: (value: string) => void
  /** A new password follows the signup rule (8 to 128 characters); a current one is whatever it is. */
  purpose: 'current' | 'new'
  error?: string | undefined
}

/** A password input that password managers understand: filled in for `current`, offered for `new`. */
export function PasswordField({ label, value, onChange, purpose, error }: PasswordFieldProps) {
  return (
    <TextField
      label={label}
      type="password"
      autoComplete={purpose === 'new' ? 'new-password' : 'current-password'}
      required
      {...(purpose === 'new' ? { minLength: 8, maxLength: 128 } : {})}
      error={error}
      value={value}
      onValue={onChange}
    />
  )
}
