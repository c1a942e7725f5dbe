import { useEffect, useState } from 'react'
import { apiNotificationSettings, apiSetNotificationSettings } from '../../api/account.js'
import type { NotificationSettings } from '../../api/types.js'
import { useBusy } from '../use-busy.js'

type MailToggles = NotificationSettings['email']

/** The kinds of notification Chirp may mail about, as the settings API names them. */
const KINDS: readonly (readonly [keyof MailToggles, string])[] = [
  ['mention', 'Mentions'],
  ['direct', 'Direct messages'],
  ['follow', 'New followers and follow requests'],
]

/**
 * Mail about what happens while I am away (DECISIONS §15): a toggle for each kind, all off until turned
 * on. A burst arrives as one mail, and every mail has a link that turns its kind off again.
 */
export function MailSection() {
  const [email, setEmail] = useState<MailToggles | null>(null)
  const [failed, setFailed] = useState(false)
  const [busy, run] = useBusy()

  useEffect(() => {
    apiNotificationSettings().then(
      (settings) => setEmail(settings.email),
      () => setFailed(true),
    )
  }, [])

  const toggle = (kind: keyof MailToggles, on: boolean) =>
    void run(async () => setEmail((await apiSetNotificationSettings({ email: { [kind]: on } })).email))

  if (failed) return <p>Your mail settings could not be loaded.</p>
  if (!email) return <p aria-busy="true">Loading…</p>
  return (
    <>
      <p>Mail to your address about what happens while you are away. Several at once come as one mail.</p>
      <fieldset disabled={busy}>
        <legend>Send me mail about</legend>
        {KINDS.map(([kind, label]) => (
          <label key={kind} className="setting-toggle">
            <input type="checkbox" checked={email[kind]} onChange={(event) => toggle(kind, event.target.checked)} />
            {label}
          </label>
        ))}
      </fieldset>
    </>
  )
}
