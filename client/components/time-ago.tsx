import { relativeTime } from '../lib/relative-time.js'
import { useNow } from '../lib/use-now.js'

/**
 * '5 minutes ago', kept current by the shared clock. Only this text draws again at each tick, not the
 * card around it: a long list's cards stay as they are while their times move on.
 */
export function TimeAgo({ at, now }: { at: string; now?: number | undefined }) {
  const live = useNow()
  return <time dateTime={at}>{relativeTime(at, now ?? live)}</time>
}
