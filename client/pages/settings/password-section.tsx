import { useId, useState, type FormEvent } from 'react'
import { codeOf } from '../../../common/error-codes.js'
import { apiChangePassword } from '../../api/account.js'
import { FormError } from '../../components/form-error.js'
import { PasswordField } from '../../components/password-field.js'
import { replaceToken } from '../../state/session.js'
import { showToast } from '../../state/toasts.js'
import { useFormCall } from '../use-form-call.js'

/** A new password: this tab goes on with the new token, every other device is signed out. */
export function PasswordSection() {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [again, setAgain] = useState('')
  const { busy, run, errorAt } = useFormCall<'current'>({ [codeOf('passwordIncorrect')]: 'current' })
  const formErrorId = useId()
  const formError = errorAt('form')
  const mismatch = again !== '' && again !== next ? 'The two new passwords are not the same.' : undefined

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (mismatch) return
    void run(async () => {
      replaceToken((await apiChangePassword(current, next)).encodedToken)
      for (const clear of [setCurrent, setNext, setAgain]) clear('')
      showToast('Your password was changed. Every other device was signed out.', 'success')
    })
  }

  return (
    <form className="stack" aria-describedby={formError ? formErrorId : undefined} onSubmit={submit}>
      <PasswordField
        label="Current password"
        purpose="current"
        value={current}
        onChange={setCurrent}
        error={errorAt('current')}
      />
      <PasswordField label="New password" purpose="new" value={next} onChange={setNext} />
      <PasswordField label="New password again" purpose="new" value={again} onChange={setAgain} error={mismatch} />
      <FormError id={formErrorId} message={formError} />
      <div className="row-end">
        <button type="submit" className="button primary" disabled={busy || mismatch !== undefined}>
          Change password
        </button>
      </div>
    </form>
  )
}
