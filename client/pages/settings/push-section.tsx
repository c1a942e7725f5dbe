import { useEffect, useState } from 'react'
import { apiEndPush, apiGetPush, apiPushKey, apiSetPushAlerts, apiSubscribePush } from '../../api/push.js'
import { useBusy } from '../use-busy.js'

/** The kinds of notification a push may be sent for, by the alert names of the push API. */
const KINDS = [
  ['mention', 'Mentions'],
  ['direct', 'Direct messages'],
  ['comment', 'Comments on my posts'],
  ['reply', 'Replies to my comments'],
  ['quote', 'Quotes'],
  ['favourite', 'Likes'],
  ['reblog', 'Reposts'],
  ['follow', 'New followers'],
  ['follow_request', 'Follow requests'],
  ['poll', 'Ended polls'],
] as const

const ALL_ON = Object.fromEntries(KINDS.map(([kind]) => [kind, true]))

const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window

/** The server's key as the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'))
  const bytes = new Uint8Array(new ArrayBuffer(text.length))
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

/**
 * Notifications on this device even when Chirp is closed (Web Push): a switch that asks the browser for
 * permission and subscribes this session, and which kinds are pushed.
 */
export function PushSection() {
  const [alerts, setAlerts] = useState<Record<string, boolean> | null>(null)
  const [problem, setProblem] = useState('')
  const [busy, run] = useBusy()

  useEffect(() => {
    if (!supported()) return
    apiGetPush().then(
      (subscription) => setAlerts(subscription.alerts),
      () => setAlerts(null),
    )
  }, [])

  const turnOn = async () => {
    setProblem('')
    if ((await Notification.requestPermission()) !== 'granted') {
      setProblem('The browser was not allowed to show notifications.')
      return
    }
    const registration = await navigator.serviceWorker.ready
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(await apiPushKey()),
    })
    setAlerts((await apiSubscribePush(subscription.toJSON(), ALL_ON)).alerts)
  }

  const turnOff = async () => {
    await apiEndPush()
    const registration = await navigator.serviceWorker.ready
    await (await registration.pushManager.getSubscription())?.unsubscribe()
    setAlerts(null)
  }

  const toggle = async (kind: string, on: boolean) => {
    if (!alerts) return
    const next = { ...alerts, [kind]: on }
    setAlerts((await apiSetPushAlerts(Object.fromEntries(KINDS.map(([each]) => [each, next[each] ?? false])))).alerts)
  }

  if (!supported()) return <p>This browser cannot receive push notifications.</p>
  return (
    <>
      <p>Notifications on this device, even when Chirp is closed.</p>
      <label className="setting-toggle">
        <input
          type="checkbox"
          role="switch"
          checked={alerts !== null}
          disabled={busy}
          onChange={(event) => void run(() => (event.target.checked ? turnOn() : turnOff()))}
        />
        Push notifications on this device
      </label>
      {problem && <p role="alert">{problem}</p>}
      {alerts && (
        <fieldset disabled={busy}>
          <legend>Send a push for</legend>
          {KINDS.map(([kind, label]) => (
            <label key={kind} className="setting-toggle">
              <input
                type="checkbox"
                checked={alerts[kind] ?? false}
                onChange={(event) => void run(() => toggle(kind, event.target.checked))}
              />
              {label}
            </label>
          ))}
        </fieldset>
      )}
    </>
  )
}
