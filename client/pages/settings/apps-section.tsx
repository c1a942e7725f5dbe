import { useEffect, useState } from 'react'
import { apiAuthorisedApps, apiRevokeApp } from '../../api/account.js'
import type { AuthorisedApp } from '../../api/types.js'
import { ConfirmDialog } from '../../components/confirm-dialog.js'
import { EmptyState } from '../../components/empty-state.js'
import { formatFullDate } from '../../lib/relative-time.js'
import { showToast } from '../../state/toasts.js'
import { useBusy } from '../use-busy.js'

/** What each kind of scope lets an app do, in the order they are said. */
const POWERS: readonly [prefix: string, power: string][] = [
  ['read', 'read your account'],
  ['write', 'post and make changes'],
  ['follow', 'follow, block and mute'],
  ['push', 'send you notifications'],
  ['admin', 'moderate'],
]

/** "Can read your account and post and make changes": the scopes, by their kind. */
function powersOf(scopes: readonly string[]): string {
  const kinds = new Set(scopes.map((scope) => scope.split(':')[0]))
  const powers = POWERS.filter(([prefix]) => kinds.has(prefix)).map(([, power]) => power)
  if (powers.length === 0) return 'Can do nothing on your behalf'
  const said = powers.length === 1 ? powers[0] : `${powers.slice(0, -1).join(', ')} and ${powers.at(-1) ?? ''}`
  return `Can ${said ?? ''}`
}

/** One app, with what it may do, when it was authorised, and its Revoke button. */
function Row({ app, onRevoke }: { app: AuthorisedApp; onRevoke: () => void }) {
  return (
    <li className="person-row app-row">
      <div className="app-row-text">
        <span className="author-name">{app.name}</span>
        {app.website && URL.canParse(app.website) && (
          <span className="author-handle"> {new URL(app.website).host}</span>
        )}
        <p>
          {powersOf(app.scopes)}; authorised {formatFullDate(app.authorisedAt)}
        </p>
      </div>
      <button type="button" className="button outline" aria-label={`Revoke ${app.name}`} onClick={onRevoke}>
        Revoke
      </button>
    </li>
  )
}

/**
 * Settings: the Mastodon apps signed in to my account (a phone's app, a desktop client), each with
 * Revoke, which signs that app out wherever it runs.
 */
export function AppsSection() {
  const [apps, setApps] = useState<AuthorisedApp[] | undefined>(undefined)
  const [failed, setFailed] = useState(false)
  const [asking, setAsking] = useState<AuthorisedApp | undefined>(undefined)
  const [busy, run] = useBusy()

  useEffect(() => {
    let live = true
    apiAuthorisedApps().then(
      (found) => live && setApps(found),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [])

  const revoke = async (app: AuthorisedApp) => {
    setAsking(undefined)
    if (await run(() => apiRevokeApp(app.id))) {
      setApps((before) => before?.filter((other) => other.id !== app.id))
      showToast(`${app.name} was signed out.`)
    }
  }

  return (
    <>
      <p>Apps you signed in to Chirp with, such as a Mastodon app on your phone. Revoking one signs it out.</p>
      {failed && <p className="empty-state">Your apps could not be loaded. Reload the page to try again.</p>}
      {apps?.length === 0 && <EmptyState text="No app is signed in to your account." />}
      {apps !== undefined && apps.length > 0 && (
        <ul aria-label="Authorised apps" className="people-list" aria-busy={busy}>
          {apps.map((app) => (
            <Row key={app.id} app={app} onRevoke={() => setAsking(app)} />
          ))}
        </ul>
      )}
      {asking && (
        <ConfirmDialog
          title={`Revoke ${asking.name}?`}
          text="It will be signed out wherever it runs, and will have to be authorised again to use your account."
          confirmLabel="Revoke"
          tone="plain"
          onCancel={() => setAsking(undefined)}
          onConfirm={() => void revoke(asking)}
        />
      )}
    </>
  )
}
