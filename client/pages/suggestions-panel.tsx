import { WhoToFollow } from '../components/who-to-follow.js'
import { useSuggestions } from './use-suggestions.js'

/**
 * Who to follow in the side panel (or on a phone's Explore, `max` of them), kept fresh as whom I follow changes. Its own component, so that the
 * suggestions arriving redraw the panel and not the whole frame.
 */
export function SuggestionsPanel({ max }: { max?: number }) {
  const suggestions = useSuggestions({ load: true })
  return (
    <WhoToFollow
      // Fewer than are loaded, where room is short: a follow then brings the next one up at once.
      users={max === undefined ? suggestions.shown : suggestions.shown.slice(0, max)}
      loaded={suggestions.loaded}
      pending={suggestions.pending}
      requested={suggestions.requested}
      onFollow={suggestions.follow}
      onDismiss={suggestions.dismiss}
      error={suggestions.error}
      onRetry={suggestions.retry}
    />
  )
}
