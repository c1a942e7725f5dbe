import { Type } from '@sinclair/typebox'
import type { User } from '../schemas/users.js'
import type { Services } from '../services/index.js'

export const RelationshipSchema = Type.Object(
  {
    id: Type.String(),
    following: Type.Boolean(),
    showing_reblogs: Type.Boolean(),
    notifying: Type.Boolean(),
    languages: Type.Array(Type.String()),
    followed_by: Type.Boolean(),
    blocking: Type.Boolean(),
    blocked_by: Type.Boolean(),
    muting: Type.Boolean(),
    muting_notifications: Type.Boolean(),
    requested: Type.Boolean(),
    requested_by: Type.Boolean(),
    domain_blocking: Type.Boolean(),
    endorsed: Type.Boolean(),
    note: Type.String(),
  },
  { title: 'MastodonRelationship' },
)

/** The relationships of the reader with each of `ids`, as the users and relations services tell them. */
export async function relationshipsOf(services: Services, meId: string, ids: readonly string[]) {
  const [people, relations] = await Promise.all([
    Promise.all(ids.map((id) => services.users.get(id, meId).then(({ user }) => user))),
    services.relations.with(meId, ids),
  ])
  return people.map((user: User, i) => {
    const relation = relations[i]
    return {
      id: user._id,
      following: user.followers.some((follower) => follower._id === meId),
      showing_reblogs: true,
      notifying: false,
      languages: [],
      followed_by: user.following.some((followed) => followed._id === meId),
      blocking: relation?.blocking ?? false,
      blocked_by: relation?.blockedBy ?? false,
      muting: relation?.muting ?? false,
      muting_notifications: relation?.muting ?? false,
      requested: user.requested === true,
      requested_by: false,
      domain_blocking: false,
      endorsed: false,
      note: '',
    }
  })
}

/** The reader's relationship with one account. */
export async function relationshipOf(services: Services, meId: string, id: string) {
  const [relationship] = await relationshipsOf(services, meId, [id])
  if (!relationship) throw new Error('a relationship with one person')
  return relationship
}
