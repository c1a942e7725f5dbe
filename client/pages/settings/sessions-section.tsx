import { useState } from 'react'
import { useLocation } from 'wouter'
import { apiLogoutAll } from '../../api/account.js'
import { ConfirmDialog } from '../../components/confirm-dialog.js'
import { paths } from '../../paths.js'
import { clearState } from '../../state/sign-out.js'
import { useBusy } from '../use-busy.js'

const CONFIRM = {
  title: 'Log out everywhere?',
  text: 'Every device signed in to your account, this one too, will have to log in again.',
  confirmLabel: 'Log out everywhere',
} as const

/** Log out everywhere: a lost phone, a shared computer. */
export function SessionsSection() {
  const [asking, setAsking] = useState(false)
  const [busy, run] = useBusy()
  const [, navigate] = useLocation()

  const logoutAll = async () => {
    setAsking(false)
    if (await run(apiLogoutAll)) {
      clearState()
      navigate(paths.login.href(), { replace: true })
    }
  }

  return (
    <>
      <p>Signs out every browser and device that is signed in to your account, this one included.</p>
      <div className="row-end">
        <button type="button" className="button outline" disabled={busy} onClick={() => setAsking(true)}>
          Log out everywhere
        </button>
      </div>
      {asking && (
        <ConfirmDialog {...CONFIRM} tone="plain" onCancel={() => setAsking(false)} onConfirm={() => void logoutAll()} />
      )}
    </>
  )
}
