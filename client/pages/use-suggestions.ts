import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { session } from '../state/session.js'
import { toggleFollow } from '../state/follows.js'
import { dismissSuggestion, loadSuggestions, users } from '../state/users.js'

/**
 * The people to suggest: not me and not anyone I follow, however the suggestions were fetched.
 * `load` keeps them fresh whenever whom I follow changes, from any screen; only one caller asks for
 * that (the side panel, or where the screen has none the empty feed's list), the others read.
 */
export function useSuggestions({ load = false } = {}) {
  const { username, user } = useSnapshot(session)
  const { suggestions, suggestionsLoaded, suggestionsError, pending, requested, followsVersion } = useSnapshot(users)

  useEffect(() => {
    // Not while logging out: the call would go without a token and fail.
    if (load && username) void loadSuggestions()
  }, [load, username, followsVersion])

  const followingIds = new Set(user?.following.map((u) => u._id))
  const shown = suggestions.filter((u) => u.username !== username && !followingIds.has(u._id))
  return {
    shown,
    loaded: suggestionsLoaded,
    error: suggestionsError,
    pending,
    requested,
    follow: (id: string) => void toggleFollow(id),
    dismiss: (id: string) => void dismissSuggestion(id),
    retry: () => void loadSuggestions(),
  }
}
