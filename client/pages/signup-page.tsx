import { useEffect, useId, useState, type FormEvent } from 'react'
import { useSnapshot } from 'valtio'
import { Link, Redirect, useLocation, useSearch } from 'wouter'
import { codeOf } from '../../common/error-codes.js'
import { nameProblem } from '../../server/schemas/text.js'
import { AuthCard } from '../components/auth-card.js'
import { FormError } from '../components/form-error.js'
import { RegistrationNotice } from '../components/registration-notice.js'
import { TextField } from '../components/text-field.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { paths } from '../paths.js'
import { loadHealth, session, signup } from '../state/session.js'
import { useFormCall } from './use-form-call.js'
import { useReturnPath } from './use-return-path.js'
import { LIMITS } from '../../common/limits.js'

const EMPTY = { firstName: '', lastName: '', email: '', username: '', password: '' }
type Field = keyof typeof EMPTY | 'invite'

/** The refusals about one field; the rest (sign-ups closed, too many tries) are about the form. */
const FIELDS = {
  [codeOf('inviteRequired')]: 'invite',
  [codeOf('usernameExists')]: 'username',
  [codeOf('usernameLookAlike')]: 'username',
  [codeOf('usernameNotAvailable')]: 'username',
} as const satisfies Record<string, Field>

export function SignupPage() {
  const { token, registration } = useSnapshot(session)
  const returnTo = useReturnPath()
  const [, navigate] = useLocation()
  // An invite link is /signup?invite=<code>: the code is filled in, and can still be corrected.
  const linkInvite = new URLSearchParams(useSearch()).get('invite') ?? ''
  const [form, setForm] = useState({ ...EMPTY, invite: linkInvite })
  const [pending, setPending] = useState(false)
  const call = useFormCall<Field>(FIELDS)
  const formErrorId = useId()
  useDocumentTitle('Sign up')
  useEffect(() => {
    if (session.registration === null) void loadHealth()
  }, [])

  if (token) return <Redirect to={returnTo} replace />

  const login = (
    <p className="auth-switch">
      Already have an account? <Link href={paths.login.href(returnTo)}>Log in</Link>
    </p>
  )
  if (pending)
    return (
      <AuthCard title="Create your account">
        <p role="status">Your account is waiting for approval. You can log in once a moderator approves it.</p>
        {login}
      </AuthCard>
    )
  if (registration === 'closed')
    return (
      <AuthCard title="Create your account">
        <RegistrationNotice mode={registration} />
        {login}
      </AuthCard>
    )

  // The server's rules for names, told as the user types; an empty field is left to `required`.
  const firstNameProblem = form.firstName === '' ? undefined : nameProblem('First name', form.firstName)
  const lastNameProblem = form.lastName === '' ? undefined : nameProblem('Last name', form.lastName)
  const askInvite = registration === 'invite' || linkInvite !== ''

  const field = (key: Field) => ({
    name: key,
    value: form[key],
    required: true,
    error: call.errorAt(key),
    onChange: (e: { currentTarget: HTMLInputElement }) => {
      setForm({ ...form, [key]: e.currentTarget.value })
      if (call.errorAt(key)) call.clear()
    },
  })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    // Signup goes ahead only with a password.
    if (!form.password || firstNameProblem || lastNameProblem) return
    const { invite, ...rest } = form
    let outcome = 'in' as 'in' | 'pending'
    const body = { ...rest, username: form.username.trim(), email: form.email.trim() }
    const done = await call.run(async () => {
      outcome = await signup(invite.trim() ? { ...body, invite: invite.trim() } : body)
    })
    if (!done) return
    if (outcome === 'pending') setPending(true)
    else navigate(returnTo, { replace: true })
  }
  const formError = call.errorAt('form')

  return (
    <AuthCard title="Create your account">
      <RegistrationNotice mode={registration} />
      <form className="stack" aria-describedby={formError ? formErrorId : undefined} onSubmit={(e) => void submit(e)}>
        {askInvite && (
          <TextField
            label="Invite code"
            autoComplete="off"
            maxLength={100}
            {...field('invite')}
            required={registration === 'invite'}
          />
        )}
        <div className="field-row">
          <TextField
            label="First Name"
            autoComplete="given-name"
            maxLength={LIMITS.name}
            {...field('firstName')}
            error={firstNameProblem}
          />
          <TextField
            label="Last Name"
            autoComplete="family-name"
            maxLength={LIMITS.name}
            {...field('lastName')}
            error={lastNameProblem}
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
        <FormError id={formErrorId} message={formError} />
        <button
          type="submit"
          className="button primary wide"
          disabled={call.busy || Boolean(firstNameProblem || lastNameProblem)}
        >
          Create Account
        </button>
      </form>
      {login}
    </AuthCard>
  )
}
