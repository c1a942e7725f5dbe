import { useId, useState, type FormEvent } from 'react'
import { useLocation } from 'wouter'
import { codeOf } from '../../../common/error-codes.js'
import { apiDeleteAccount } from '../../api/account.js'
import { FormError } from '../../components/form-error.js'
import { PasswordField } from '../../components/password-field.js'
import { TextField } from '../../components/text-field.js'
import { paths } from '../../paths.js'
import { session } from '../../state/session.js'
import { clearState } from '../../state/sign-out.js'
import { showToast } from '../../state/toasts.js'
import { useFormCall } from '../use-form-call.js'

/** The danger zone: typing the username confirms that the account, and all it made, goes for good. */
export function DeleteSection() {
  const [typed, setTyped] = useState('')
  const [password, setPassword] = useState('')
  const { busy, run, errorAt } = useFormCall<'password'>({ [codeOf('passwordIncorrect')]: 'password' })
  const formErrorId = useId()
  const formError = errorAt('form')
  const [, navigate] = useLocation()
  const username = session.username ?? ''
  const confirmed = username !== '' && typed === username && password !== ''

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!confirmed) return
    void run(async () => {
      await apiDeleteAccount(password)
      clearState()
      navigate(paths.login.href(), { replace: true })
      showToast('Your account was deleted.', 'success')
    })
  }

  return (
    <form className="stack danger-zone" aria-describedby={formError ? formErrorId : undefined} onSubmit={submit}>
      <p>
        Deletes your account and everything you made: posts, comments, likes, bookmarks and follows. This cannot be
        undone. Your username stays reserved for 30 days.
      </p>
      <TextField
        label={`Type your username (${username}) to confirm`}
        autoComplete="off"
        value={typed}
        onValue={setTyped}
      />
      <PasswordField
        label="Your password"
        purpose="current"
        value={password}
        onChange={setPassword}
        error={errorAt('password')}
      />
      <FormError id={formErrorId} message={formError} />
      <div className="row-end">
        <button type="submit" className="button danger" disabled={busy || !confirmed}>
          Delete account
        </button>
      </div>
    </form>
  )
}
