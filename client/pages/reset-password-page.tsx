import { useId, useState, type FormEvent } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { apiConfirmPasswordReset, apiRequestPasswordReset } from '../api/account.js'
import { AuthCard } from '../components/auth-card.js'
import { FormError } from '../components/form-error.js'
import { PasswordField } from '../components/password-field.js'
import { TextField } from '../components/text-field.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { paths } from '../paths.js'
import { showToast } from '../state/toasts.js'
import { useFormCall } from './use-form-call.js'

/**
 * A forgotten password: without a token, asks for a link by mail; with the mailed link's `?token=`,
 * sets the new password and sends the person to log in with it.
 */
export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token')
  useDocumentTitle('Reset your password')
  return (
    <AuthCard title="Reset your password">
      {token ? <NewPasswordForm token={token} /> : <AskForLink />}
      <p className="auth-switch">
        <Link href={paths.login.href()}>Back to log in</Link>
      </p>
    </AuthCard>
  )
}

function AskForLink() {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const { busy, run, errorAt } = useFormCall()
  const formErrorId = useId()
  const formError = errorAt('form')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await apiRequestPasswordReset(email.trim())
      setSent(true)
    })
  }
  if (sent)
    return (
      <p role="status">
        If an account uses {email.trim()}, a link to choose a new password is on its way. It works once, for an hour.
      </p>
    )
  return (
    <form className="stack" aria-describedby={formError ? formErrorId : undefined} onSubmit={submit}>
      <p>Enter the email address of your account, and we will mail you a link to choose a new password.</p>
      <TextField label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
      <FormError id={formErrorId} message={formError} />
      <button type="submit" className="button primary wide" disabled={busy}>
        Send the link
      </button>
    </form>
  )
}

function NewPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('')
  const { busy, run, errorAt } = useFormCall()
  const formErrorId = useId()
  const formError = errorAt('form')
  const [, navigate] = useLocation()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await apiConfirmPasswordReset(token, password)
      showToast('Your password was changed. Log in with the new one.', 'success')
      navigate(paths.login.href(), { replace: true })
    })
  }
  return (
    <form className="stack" aria-describedby={formError ? formErrorId : undefined} onSubmit={submit}>
      <PasswordField label="New password" purpose="new" value={password} onChange={setPassword} />
      <FormError id={formErrorId} message={formError} />
      <button type="submit" className="button primary wide" disabled={busy}>
        Set the new password
      </button>
    </form>
  )
}
