import { useState, type FormEvent } from 'react'
import { useSnapshot } from 'valtio'
import { Link, Redirect, useLocation } from 'wouter'
import { nameProblem } from '../../server/schemas/text.js'
import { AuthCard } from '../components/auth-card.js'
import { TextField } from '../components/text-field.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { paths } from '../paths.js'
import { session, signup } from '../state/session.js'
import { useReturnPath } from './use-return-path.js'
import { LIMITS } from '../../common/limits.js'

const EMPTY = { firstName: '', lastName: '', email: '', username: '', password: '' }

export function SignupPage() {
  const { token } = useSnapshot(session)
  const returnTo = useReturnPath()
  const [, navigate] = useLocation()
  const [form, setForm] = useState(EMPTY)
  const [busy, setBusy] = useState(false)
  useDocumentTitle('Sign up')

  if (token) return <Redirect to={returnTo} replace />

  // The server's rules for names, told as the user types; an empty field is left to `required`.
  const firstNameProblem = form.firstName === '' ? undefined : nameProblem('First name', form.firstName)
  const lastNameProblem = form.lastName === '' ? undefined : nameProblem('Last name', form.lastName)

  const field = (key: keyof typeof EMPTY) => ({
    name: key,
    value: form[key],
    required: true,
    onChange: (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [key]: e.currentTarget.value }),
  })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    // Signup goes ahead only with a password.
    if (!form.password || firstNameProblem || lastNameProblem) return
    setBusy(true)
    const ok = await signup({ ...form, username: form.username.trim(), email: form.email.trim() })
    setBusy(false)
    if (ok) navigate(returnTo, { replace: true })
  }

  return (
    <AuthCard title="Create your account">
      <form className="stack" onSubmit={(e) => void submit(e)}>
        <div className="field-row">
          <TextField
            label="First Name"
            autoComplete="given-name"
            maxLength={LIMITS.name}
            error={firstNameProblem}
            {...field('firstName')}
          />
          <TextField
            label="Last Name"
            autoComplete="family-name"
            maxLength={LIMITS.name}
            error={lastNameProblem}
            {...field('lastName')}
          />
        </div>
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
        <TextField
          label="Username"
          autoComplete="username"
          pattern="[A-Za-z0-9_.]{3,30}"
          title="3 to 30 letters, digits, dots or underscores"
          {...field('username')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          maxLength={128}
          {...field('password')}
        />
        <button
          type="submit"
          className="button primary wide"
          disabled={busy || Boolean(firstNameProblem || lastNameProblem)}
        >
          Create Account
        </button>
      </form>
      <p className="auth-switch">
        Already have an account? <Link href={paths.login.href(returnTo)}>Log in</Link>
      </p>
    </AuthCard>
  )
}
