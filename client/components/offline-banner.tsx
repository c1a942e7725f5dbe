/** The browser says it is offline, or the server answers neither the stream nor calls. */
type Reason = 'offline' | 'unreachable'

const TEXT: Record<Reason, string> = {
  offline: "You're offline. Chirp will catch up when you're back.",
  unreachable: "Chirp can't be reached right now. Trying again…",
}

/**
 * Says that what is on screen may be out of date and that writes will fail, for as long as it is so.
 * The live region is there even while empty, as screen readers announce changes only to a region they
 * already know.
 */
export function OfflineBanner({ reason }: { reason: Reason | null }) {
  return (
    <div className="offline-region" aria-live="polite">
      {reason && <p className="offline-banner">{TEXT[reason]}</p>}
    </div>
  )
}
