import { useEffect, useId, useState, type FormEvent } from 'react'
import { codeOf } from '../../../common/error-codes.js'
import { apiDisableTwoFactor, apiEnableTwoFactor, apiSetupTwoFactor, apiTwoFactorStatus } from '../../api/account.js'
import type { TwoFactorSetup } from '../../api/types.js'
import { FormError } from '../../components/form-error.js'
import { PasswordField } from '../../components/password-field.js'
import { TextField } from '../../components/text-field.js'
import { showError, showToast } from '../../state/toasts.js'
import { useFormCall } from '../use-form-call.js'
import { QrCode } from './qr-code.js'
import { RecoveryCodes } from './recovery-codes.js'

/** A wrong code is told at the code, a wrong password at the password; the rest above the button. */
const FIELDS = { [codeOf('twoFactorInvalid')]: 'code', [codeOf('passwordIncorrect')]: 'password' } as const

type Stage =
  | { name: 'loading' }
  | { name: 'off' }
  | { name: 'setup'; setup: TwoFactorSetup }
  | { name: 'codes'; recoveryCodes: string[] }
  | { name: 'on' }

/**
 * Two-factor sign-in: set up with a QR code drawn here (or the key typed in), turned on by a first code
 * with the password, which shows the recovery codes once; turned off with the password and a code.
 */
export function TwoFactorSection() {
  const [stage, setStage] = useState<Stage>({ name: 'loading' })
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const { busy, run, errorAt } = useFormCall<'code' | 'password'>(FIELDS)
  const formErrorId = useId()
  const formError = errorAt('form')
  const describedBy = formError ? formErrorId : undefined
  const failure = <FormError id={formErrorId} message={formError} />

  useEffect(() => {
    apiTwoFactorStatus()
      .then(({ enabled }) => setStage(enabled ? { name: 'on' } : { name: 'off' }))
      .catch((error: unknown) => {
        setStage({ name: 'off' })
        showError(error)
      })
  }, [])

  const begin = () => run(async () => setStage({ name: 'setup', setup: await apiSetupTwoFactor() }))
  const enable = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const { recoveryCodes } = await apiEnableTwoFactor(password, code.trim())
      setCode('')
      setPassword('')
      setStage({ name: 'codes', recoveryCodes })
    })
  }
  const disable = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await apiDisableTwoFactor(password, code.trim())
      setCode('')
      setPassword('')
      setStage({ name: 'off' })
      showToast('Two-factor sign-in is off.', 'success')
    })
  }
  const passwordField = (
    <PasswordField
      label="Password"
      purpose="current"
      value={password}
      onChange={setPassword}
      error={errorAt('password')}
    />
  )
  const codeField = (
    <TextField
      label="Code from the app"
      autoComplete="one-time-code"
      required
      maxLength={32}
      value={code}
      onValue={setCode}
      error={errorAt('code')}
    />
  )

  switch (stage.name) {
    case 'loading':
      return <p aria-busy="true">Checking two-factor sign-in…</p>
    case 'off':
      return (
        <>
          <p>
            With two-factor sign-in on, logging in also asks for a code from an authenticator app on your phone, so your
            password alone is not enough.
          </p>
          {failure}
          <div className="row-end">
            <button type="button" className="button primary" disabled={busy} onClick={() => void begin()}>
              Set up two-factor sign-in
            </button>
          </div>
        </>
      )
    case 'setup':
      return (
        <form className="stack" aria-describedby={describedBy} onSubmit={enable}>
          <p>Scan this code with an authenticator app, then enter your password and the 6-digit code it shows.</p>
          <QrCode text={stage.setup.otpauthUrl} label="QR code for your authenticator app" />
          <p>
            Or type this key into the app: <code className="secret-key">{stage.setup.secret}</code>
          </p>
          {passwordField}
          {codeField}
          {failure}
          <div className="row-end">
            <button type="button" className="button outline" onClick={() => setStage({ name: 'off' })}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={busy}>
              Turn on
            </button>
          </div>
        </form>
      )
    case 'codes':
      return <RecoveryCodes codes={stage.recoveryCodes} onDone={() => setStage({ name: 'on' })} />
    case 'on':
      return (
        <form className="stack" aria-describedby={describedBy} onSubmit={disable}>
          <p>Two-factor sign-in is on. To turn it off, enter your password and a code (or a recovery code).</p>
          {passwordField}
          {codeField}
          {failure}
          <div className="row-end">
            <button type="submit" className="button danger" disabled={busy}>
              Turn off two-factor sign-in
            </button>
          </div>
        </form>
      )
  }
}
