import { WhoToFollow } from '../components/who-to-follow.js'
import { useSuggestions } from './use-suggestions.js'

/**
 * Who to follow in the side panel, kept fresh as whom I follow changes. Its own component, so that the
 * suggestions arriving redraw the panel and not the whole frame.
 */
export function SuggestionsPanel() {
  const suggestions = useSuggestions({ load: true })
  return (
    <WhoToFollow
      users={suggestions.shown}
      loaded={suggestions.loaded}
      pending={suggestions.pending}
      onFollow={suggestions.follow}
      error={suggestions.error}
      onRetry={suggestions.retry}
    />
  )
}
