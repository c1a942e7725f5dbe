import type { TestContext } from './app.js'
import { signup, type SignedUp } from './api.js'
import { eventually, startInstance, type Instance } from './federation-instances.js'
import { call } from './moderation.js'

/** `person`'s handle as another server names them. */
export const handleOf = (person: SignedUp, instance: Instance) => `${person.username}@${instance.host}`

/**
 * Two federating instances: Ann of A, and Bob of B who follows her, once A has his follow; then Ann's
 * post `content`, as A keeps it (`post`) and as it reached Bob's home feed on B (`there`).
 */
export async function followedPost(t: TestContext, content: string) {
  const [a, b] = [await startInstance(t, 0), await startInstance(t, 1)]
  const ann = await signup(a, { firstName: 'Ann', lastName: 'Lee' })
  const bob = await signup(b, { firstName: 'Bob', lastName: 'Ray' })
  const annThere = await call(b, bob.token, 'GET', `/api/users/${handleOf(ann, a)}`)
  await call(b, bob.token, 'POST', `/api/users/follow/${annThere.json<{ user: { _id: string } }>().user._id}`, {})
  await eventually(
    () =>
      call(a, ann.token, 'GET', `/api/users/${ann.username}`).then((r) => r.json<{ user: { followers: unknown[] } }>()),
    (body) => body.user.followers.length === 1,
  )
  const written = await call(a, ann.token, 'POST', '/api/posts', { postData: { content } })
  const post = written.json<{ post: { _id: string } }>().post
  const page = `${a.origin}/post-detail/${post._id}`
  const feed = await eventually(
    () =>
      call(b, bob.token, 'GET', '/api/feed').then((r) => r.json<{ posts: { _id: string; url?: string }[] }>().posts),
    (posts) => posts.some((shown) => shown.url === page),
  )
  const there = feed.find((shown) => shown.url === page)
  if (!there) throw new Error('the post never reached B')
  return { a, b, ann, bob, post, there }
}
