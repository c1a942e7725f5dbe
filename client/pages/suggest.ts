import { apiSearchUsers } from '../api/search.js'
import { displayNameOf } from '../lib/model.js'
import type { Suggestion } from '../lib/typeahead.js'
import { weekTags } from '../state/search.js'

/** How many suggestions a typeahead shows. */
const SHOWN = 5

/** People as the search finds them: `@name` by the start of the username, other words by the start of a name. */
export async function suggestPeople(query: string): Promise<Suggestion[]> {
  const { users } = await apiSearchUsers(query, { limit: SHOWN })
  return users.map((user) => ({
    kind: 'person',
    username: user.username,
    name: displayNameOf(user),
    avatarURL: user.avatarURL,
  }))
}

/** This week's tags that begin with `prefix` (without `#`), the most used first. */
export async function suggestTags(prefix: string): Promise<Suggestion[]> {
  const start = prefix.toLowerCase()
  const found = (await weekTags()).filter(({ tag }) => tag.startsWith(start)).slice(0, SHOWN)
  return found.map(({ tag, posts }) => ({ kind: 'tag', tag, posts }))
}

/** The composer's typeahead: people for `@`, tags for `#`. */
export function suggestForComposer(trigger: '@' | '#', query: string): Promise<Suggestion[]> {
  return trigger === '@' ? suggestPeople(`@${query}`) : suggestTags(query)
}
