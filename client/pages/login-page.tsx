import { useId, useState, type FormEvent } from 'react'
import { useSnapshot } from 'valtio'
import { Link, Redirect, useLocation } from 'wouter'
import { codeOf } from '../../common/error-codes.js'
import { errorCode, errorMessage } from '../api/http.js'
import { AuthCard } from '../components/auth-card.js'
import { FormError } from '../components/form-error.js'
import { TextField } from '../components/text-field.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { paths } from '../paths.js'
import { login, loginAsGuest, session } from '../state/session.js'
import { useReturnPath } from './use-return-path.js'

type Field = 'username' | 'password' | 'code'

/** Said at the field it is about; anything else (a suspended account, too many tries) above the button. */
const FIELDS: Partial<Record<string, Field>> = {
  [codeOf('userNotRegistered')]: 'username',
  [codeOf('invalidCredentials')]: 'password',
  [codeOf('twoFactorInvalid')]: 'code',
  [codeOf('twoFactorRequired')]: 'code',
}

export function LoginPage() {
  const { token, guestLogin } = useSnapshot(session)
  const returnTo = useReturnPath()
  const [, navigate] = useLocation()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  /** Asked for once the server says the account has two-factor sign-in on. */
  const [code, setCode] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<{ field: Field | 'form'; message: string } | null>(null)
  const formErrorId = useId()
  useDocumentTitle('Log in')

  if (token) return <Redirect to={returnTo} replace />

  const finish = async (attempt: Promise<boolean | 'code'>) => {
    setBusy(true)
    const outcome = await attempt
    setBusy(false)
    if (outcome === 'code') setCode('')
    else if (outcome) navigate(returnTo, { replace: true })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setProblem(null)
    const otp = code?.trim()
    void finish(
      login({ username: username.trim(), password, ...(otp ? { otp } : {}) }, (error) =>
        setProblem({ field: FIELDS[errorCode(error) ?? ''] ?? 'form', message: errorMessage(error) }),
      ),
    )
  }
  const errorAt = (field: Field | 'form') => (problem?.field === field ? problem.message : undefined)
  const formError = errorAt('form')

  return (
    <AuthCard title="Log in to Chirp">
      <form className="stack" aria-describedby={formError ? formErrorId : undefined} onSubmit={submit}>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          value={username}
          error={errorAt('username')}
          onChange={(e) => {
            setUsername(e.currentTarget.value)
            setProblem(null)
          }}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          minLength={8}
          value={password}
          error={errorAt('password')}
          onChange={(e) => {
            setPassword(e.currentTarget.value)
            setProblem(null)
          }}
        />
        {code !== undefined && (
          <>
            <p className="field-hint" id="login-code-hint">
              Enter the 6-digit code from your authenticator app, or one of your recovery codes.
            </p>
            <TextField
              label="Two-factor code"
              name="otp"
              autoComplete="one-time-code"
              inputMode="text"
              required
              autoFocus
              hint="login-code-hint"
              value={code}
              error={errorAt('code')}
              onValue={(value) => {
                setCode(value)
                setProblem(null)
              }}
            />
          </>
        )}
        <FormError id={formErrorId} message={formError} />
        <button type="submit" className="button primary wide" disabled={busy}>
          Login
        </button>
        {guestLogin && (
          <button
            type="button"
            className="button outline wide"
            disabled={busy}
            onClick={() => void finish(loginAsGuest())}
          >
            Login as a Guest
          </button>
        )}
      </form>
      <p className="auth-switch">
        <Link href={paths.resetPassword.href()}>Forgot your password?</Link>
      </p>
      <p className="auth-switch">
        Don&apos;t have an account? <Link href={paths.signup.href(returnTo)}>Sign up</Link>
      </p>
    </AuthCard>
  )
}
