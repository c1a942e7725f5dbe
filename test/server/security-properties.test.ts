import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import t from 'tap'
import { AppError } from '../../server/errors.js'
import { createCommentsService } from '../../server/services/comments.js'
import type { ServiceDeps } from '../../server/services/deps.js'
import { createPostsService } from '../../server/services/posts.js'
import { createUsersService } from '../../server/services/users.js'
import { EmbeddedStore } from '../../server/store/embedded-store.js'
import { smallDatabase } from '../helpers/records.js'
import { buildSeededApp } from '../helpers/seeded.js'

/**
 * Random sequences of user actions, run through the real services over the real store, keep the
 * invariants of docs/api-contract.md §2 and §5 after every step; a refused action changes nothing; and what is on disk,
 * read back by a fresh store, is what memory held. Runs are few and short, so the file takes seconds.
 */
const USERS = 4
const seed = async () => smallDatabase(USERS, 3)

type Kind =
  'like' | 'dislike' | 'follow' | 'unfollow' | 'bookmark' | 'unbookmark' | 'comment' | 'uncomment' | 'post' | 'unpost'
const KINDS: Kind[] = [
  'like',
  'dislike',
  'follow',
  'unfollow',
  'bookmark',
  'unbookmark',
  'comment',
  'uncomment',
  'post',
  'unpost',
]
interface Action {
  kind: Kind
  actor: number
  /** Picks a post, user or comment among those that exist when the action runs. */
  target: number
}
const action: fc.Arbitrary<Action> = fc.record({
  kind: fc.constantFrom(...KINDS),
  actor: fc.nat(USERS - 1),
  target: fc.nat(50),
})

async function everything(store: EmbeddedStore) {
  const users = (await store.listUsers({})).items
  const posts = (await store.listPosts({ sort: 'latest' })).items
  return { users, posts }
}

const unique = (ids: readonly string[]) => new Set(ids).size === ids.length

async function checkInvariants(
  store: EmbeddedStore,
  posts: ReturnType<typeof createPostsService>,
): Promise<string | undefined> {
  const db = await everything(store)
  const userIds = new Set(db.users.map((u) => u._id))
  const postIds = new Set(db.posts.map((p) => p._id))
  for (const p of db.posts) {
    const view = (await posts.get(p._id)).post
    if (view.likes.likeCount !== view.likes.likedBy.length)
      return `likeCount ${view.likes.likeCount} != likedBy ${view.likes.likedBy.length} on ${p._id}`
    if (!unique(p.likedBy)) return `a user likes ${p._id} twice`
    if (p.likedBy.some((id) => p.dislikedBy.includes(id))) return `a user both likes and dislikes ${p._id}`
    if (![...p.likedBy, ...p.dislikedBy].every((id) => userIds.has(id)))
      return `an unknown user in the likes of ${p._id}`
    for (const c of p.comments) {
      if (!userIds.has(c.authorId)) return `comment ${c._id} by an unknown user`
      if (c.upvotedBy.some((id) => c.downvotedBy.includes(id)))
        return `comment ${c._id} both up- and downvoted by one user`
    }
    if (!unique(p.comments.map((c) => c._id))) return `a comment id twice on ${p._id}`
    if (!userIds.has(p.authorId)) return `post ${p._id} by an unknown user`
  }
  for (const u of db.users) {
    if (!unique(u.following) || !unique(u.followers) || !unique(u.bookmarks)) return `duplicates in ${u._id}'s lists`
    if (u.following.includes(u._id)) return `${u._id} follows themself`
    for (const other of u.following) {
      if (!db.users.find((v) => v._id === other)?.followers.includes(u._id))
        return `${u._id} follows ${other}, who does not list them`
    }
    for (const other of u.followers) {
      if (!db.users.find((v) => v._id === other)?.following.includes(u._id))
        return `${other} is listed as following ${u._id} but does not`
    }
    if (!u.bookmarks.every((id) => postIds.has(id))) return `${u._id} bookmarks a post that no longer exists`
  }
  return undefined
}

await t.test('random sequences of actions keep every invariant, and disk matches memory', async (t) => {
  let runs = 0
  let steps = 0
  let refused = 0
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 10, maxLength: 40 }), async (actions) => {
      runs++
      const dataDir = await mkdtemp(path.join(tmpdir(), 'chirp-prop-'))
      const store = await EmbeddedStore.open({ dataDir, seed })
      let open = true
      try {
        const deps: ServiceDeps = { store, now: () => new Date() }
        const posts = createPostsService(deps)
        const users = createUsersService(deps)
        const comments = createCommentsService(deps)
        for (const { kind, actor, target } of actions) {
          steps++
          const me = `u${actor}`
          const db = await everything(store)
          const somePost = db.posts[target % Math.max(db.posts.length, 1)]?._id ?? 'none'
          const someUser = `u${target % USERS}`
          const withComments = db.posts.filter((p) => p.comments.length > 0)
          const commented = withComments[target % Math.max(withComments.length, 1)]
          const before = JSON.stringify(db)
          const run: Record<Kind, () => Promise<unknown>> = {
            like: () => posts.like(me, somePost),
            dislike: () => posts.dislike(me, somePost),
            follow: () => users.follow(me, someUser),
            unfollow: () => users.unfollow(me, someUser),
            bookmark: () => users.addBookmark(me, somePost),
            unbookmark: () => users.removeBookmark(me, somePost),
            comment: () => comments.add(me, somePost, `comment by ${me}`),
            uncomment: () =>
              comments.remove(
                me,
                commented?._id ?? 'none',
                commented?.comments[target % commented.comments.length]?._id ?? 'none',
              ),
            post: () => posts.create(me, { content: `new post by ${me}` }),
            unpost: () => posts.remove(me, somePost),
          }
          try {
            await run[kind]()
          } catch (error) {
            // A refusal is a client error, and it must leave everything as it was.
            if (!(error instanceof AppError) || error.statusCode >= 500) throw error
            refused++
            if (JSON.stringify(await everything(store)) !== before) throw new Error(`refused ${kind} changed the store`)
          }
          const broken = await checkInvariants(store, posts)
          if (broken) throw new Error(`after ${kind} by ${me}: ${broken}`)
        }
        const inMemory = JSON.stringify(await everything(store))
        await store.close()
        open = false
        const reopened = await EmbeddedStore.open({ dataDir, seed })
        const onDisk = JSON.stringify(await everything(reopened))
        await reopened.close()
        if (onDisk !== inMemory) throw new Error('the store read back from disk differs from memory')
      } finally {
        if (open) await store.close().catch(() => {})
        await rm(dataDir, { recursive: true, force: true })
      }
    }),
    // FC_SEED replays a failure that fast-check reported.
    {
      numRuns: 30,
      interruptAfterTimeLimit: 15_000,
      ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
    },
  )
  t.comment(`property runs: ${runs}, actions: ${steps}, refused as client errors: ${refused}`)
  t.ok(runs > 0)
})

await t.test(
  'random JSON bodies and path segments on every route: never a 5xx, every error in { errors }',
  async (t) => {
    const api = await buildSeededApp(t, { config: { rateLimit: false } })
    // Not the guest, whose profile edits are refused before their bodies are looked at.
    const token = await api.login('lucia.rossi')
    const routes: Array<['GET' | 'POST' | 'DELETE', (id: string) => string]> = [
      ['POST', () => '/api/auth/signup'],
      ['POST', () => '/api/auth/login'],
      ['POST', () => '/api/users/edit'],
      ['POST', (id) => `/api/users/follow/${id}`],
      ['POST', (id) => `/api/users/bookmark/${id}`],
      ['GET', (id) => `/api/users/${id}`],
      ['POST', () => '/api/posts'],
      ['POST', (id) => `/api/posts/edit/${id}`],
      ['POST', (id) => `/api/posts/like/${id}`],
      ['DELETE', (id) => `/api/posts/${id}`],
      ['GET', (id) => `/api/posts/${id}`],
      ['POST', (id) => `/api/comments/add/${id}`],
      ['POST', (id) => `/api/comments/edit/${id}/${id}`],
      ['GET', (id) => `/api/comments/${id}?limit=${id.length % 7}`],
      ['GET', (id) => `/api/feed?cursor=${id}`],
      ['GET', (id) => `/media/${id}`],
    ]
    let requests = 0
    let serverErrors = 0
    await fc.assert(
      fc.asyncProperty(
        fc.nat(routes.length - 1),
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 40 }),
          fc.uuid(),
          fc.constantFrom('..', '%2e%2e', '__proto__', 'constructor'),
        ),
        fc.option(fc.jsonValue({ maxDepth: 4 }), { nil: undefined }),
        fc.boolean(),
        async (index, segment, body, signedIn) => {
          const [method, url] = routes[index] as (typeof routes)[number]
          const payload =
            method === 'GET' || body === undefined
              ? {}
              : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
          const res = await api.as(signedIn ? token : undefined, {
            method,
            url: url(encodeURIComponent(segment)),
            ...payload,
          })
          requests++
          if (res.statusCode >= 500) serverErrors++
          if (res.statusCode >= 500)
            throw new Error(`${method} ${url(segment)} answered ${res.statusCode}: ${res.body}`)
          if (res.statusCode >= 400 && !Array.isArray((res.json() as { errors?: unknown }).errors))
            throw new Error(`not { errors }: ${res.body}`)
        },
      ),
      {
        numRuns: 300,
        interruptAfterTimeLimit: 10_000,
        ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
      },
    )
    t.comment(`random requests: ${requests}, 5xx seen: ${serverErrors}`)
    t.equal(serverErrors, 0)
  },
)
