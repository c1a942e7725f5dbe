import t, { type Test } from 'tap'
import { VISIBILITIES, type Visibility } from '../../common/audience.js'
import { NotificationsReplySchema } from '../../server/schemas/notifications.js'
import {
  BookmarksReplySchema,
  FeedReplySchema,
  PostReplySchema,
  PostsReplySchema,
  type Post,
} from '../../server/schemas/posts.js'
import { SearchReplySchema, TrendingReplySchema } from '../../server/schemas/search.js'
import { UserReplySchema } from '../../server/schemas/users.js'
import { expectError, expectOk } from '../helpers/api.js'
import {
  LISTED,
  READERS,
  READS,
  SHOWN,
  TAG,
  WORD,
  audienceWorld,
  names,
  namesIn,
  tokenOf,
  type ReaderKind,
} from '../helpers/audience-world.js'

/**
 * Who sees what (DECISIONS §12), as a table: each read path × each kind of reader × the four audiences.
 * Every row compares the posts the read shows with the posts it must show, so a row fails as much for a
 * post shown that must not be as for one missing that must be there.
 */
const world = await audienceWorld(t)
const { api, plain, pinned, quotes } = world
const author = world.people.author.username

const get = (kind: ReaderKind, url: string) => api.as(tokenOf(world, kind), { method: 'GET', url })
const idsOf = (posts: readonly Post[]) => posts.map((post) => post._id)
const signedIn = READERS.filter((kind) => kind !== 'signed out')
/** The audiences whose plain post answers `url(post)` with 200, the others being a 404 "Post not found". */
async function opened(t: Test, kind: ReaderKind, url: (post: Post) => string): Promise<Visibility[]> {
  const found: Visibility[] = []
  for (const visibility of VISIBILITIES) {
    const res = await get(kind, url(plain[visibility]))
    if (res.statusCode === 200) found.push(visibility)
    else expectError(t, res, 404, 'Post not found', `${kind}: a ${visibility} post`)
  }
  return found
}
/** A list of posts read by `kind`: which of the world's posts it shows. */
async function listed(t: Test, kind: ReaderKind, url: string) {
  const res = await get(kind, url)
  if (res.statusCode === 404) return []
  const body = expectOk(t, res, 200, PostsReplySchema, `${kind}: ${url}`)
  return namesIn(world, idsOf(body.posts))
}

await t.test("a post's page: whoever may read it, 404 to anyone else", async (t) => {
  for (const kind of READERS) t.strictSame(await opened(t, kind, (p) => `/api/posts/${p._id}`), READS[kind], kind)
  for (const kind of READERS) {
    const found = new Set<Visibility>()
    for (const visibility of VISIBILITIES.filter((v) => v !== 'direct')) {
      const res = await get(kind, `/api/posts/${pinned[visibility]?._id}`)
      if (res.statusCode === 200) found.add(visibility)
    }
    t.strictSame(
      [...found],
      READS[kind].filter((v) => v !== 'direct'),
      `${kind}: pinned posts`,
    )
  }
})

await t.test("a post's comments and likers: whoever may read the post", async (t) => {
  for (const kind of READERS) {
    t.strictSame(await opened(t, kind, (p) => `/api/comments/${p._id}`), READS[kind], `${kind}: comments`)
    t.strictSame(await opened(t, kind, (p) => `/api/posts/${p._id}/likes`), READS[kind], `${kind}: likers`)
  }
})

await t.test('a quote of a post the reader may not read reads null', async (t) => {
  for (const kind of READERS.filter((k) => k !== 'blocked')) {
    const shown: Visibility[] = []
    for (const visibility of VISIBILITIES) {
      const res = await get(kind, `/api/posts/${quotes[visibility]._id}`)
      const { post } = expectOk(t, res, 200, PostReplySchema, `${kind}: a public quote`)
      if (post.quote) shown.push(visibility)
      else t.equal(post.quote, null, `${kind}: the quote of a ${visibility} post is null`)
    }
    t.strictSame(shown, READS[kind], `${kind}: the quotes shown`)
  }
})

await t.test("a profile's posts, media and pinned posts", async (t) => {
  for (const kind of READERS) {
    const shown = names(SHOWN[kind], SHOWN[kind])
    t.strictSame(await listed(t, kind, `/api/posts/user/${author}?limit=100`), shown, `${kind}: posts`)
    t.strictSame(await listed(t, kind, `/api/posts/user/${author}?filter=media&limit=100`), shown, `${kind}: media`)
    const res = await get(kind, `/api/posts/user/${author}`)
    const first = res.statusCode === 200 ? (res.json() as { posts: Post[] }).posts : []
    const flagged = idsOf(first.filter((post) => post.pinned))
    t.strictSame(namesIn(world, flagged), names([], SHOWN[kind]), `${kind}: pinned, leading the first page`)
  }
})

await t.test("a profile's post count counts only the posts the profile shows the reader", async (t) => {
  for (const kind of READERS.filter((k) => k !== 'blocked')) {
    const { user } = expectOk(t, await get(kind, `/api/users/${author}`), 200, UserReplySchema)
    // Each audience a profile shows has a plain and a pinned post; the author's four quotes are public.
    t.equal(user.postCount, SHOWN[kind].length * 2 + VISIBILITIES.length, `${kind}: what the profile shows`)
  }
})

await t.test('the home feed: followed authors but no direct post; reposts only of what may travel', async (t) => {
  const expected: Record<Exclude<ReaderKind, 'signed out'>, string[]> = {
    author: names(SHOWN.author, SHOWN.author),
    follower: names(SHOWN.follower, SHOWN.follower),
    // Through the reposter they follow.
    mentioned: names(['public', 'unlisted']),
    stranger: names(['public', 'unlisted']),
    blocked: [],
  }
  for (const kind of signedIn) {
    const latest = expectOk(t, await get(kind, '/api/feed?limit=100'), 200, FeedReplySchema)
    t.strictSame(namesIn(world, idsOf(latest.posts)), expected[kind], `${kind}: latest`)
    const oldest = expectOk(t, await get(kind, '/api/feed?sort=oldest&limit=100'), 200, FeedReplySchema)
    t.strictSame(namesIn(world, idsOf(oldest.posts)), expected[kind], `${kind}: oldest`)
    const trending = expectOk(t, await get(kind, '/api/feed?sort=trending&limit=100'), 200, FeedReplySchema)
    const own = kind === 'author' || kind === 'follower' ? expected[kind] : []
    t.strictSame(namesIn(world, idsOf(trending.posts)), own, `${kind}: most liked, without reposts`)
  }
  t.equal((await get('signed out', '/api/feed')).statusCode, 401, 'signed out: no home feed')
})

await t.test('Explore, tag pages, search: public posts alone', async (t) => {
  for (const kind of READERS) {
    const expected = names(LISTED[kind], LISTED[kind])
    t.strictSame(await listed(t, kind, '/api/posts?limit=100'), expected, `${kind}: Explore`)
    t.strictSame(await listed(t, kind, `/api/posts/tag/${TAG}?limit=100`), expected, `${kind}: the tag's page`)
    for (const q of [WORD, `#${TAG}`, '@aud_mentioned']) {
      const res = await get(kind, `/api/search?type=posts&limit=100&q=${encodeURIComponent(q)}`)
      const { posts = [] } = expectOk(t, res, 200, SearchReplySchema)
      t.strictSame(namesIn(world, idsOf(posts)), expected, `${kind}: a search for ${q}`)
    }
  }
})

await t.test('trending tags count public posts alone', async (t) => {
  for (const kind of READERS) {
    const { tags } = expectOk(t, await get(kind, '/api/tags/trending?limit=100'), 200, TrendingReplySchema)
    const count = tags.find((entry) => entry.tag === TAG)?.posts ?? 0
    t.equal(count, names(LISTED[kind], LISTED[kind]).length, `${kind}: the public plain and pinned posts`)
  }
})

await t.test('likes and bookmarks lists: only what the reader may read', async (t) => {
  for (const kind of READERS) {
    const res = await get(kind, `/api/users/${author}/likes?limit=100`)
    const liked = res.statusCode === 200 ? namesIn(world, idsOf((res.json() as { posts: Post[] }).posts)) : []
    t.strictSame(liked, names(READS[kind]), `${kind}: the author's likes`)
  }
  for (const kind of signedIn) {
    const statuses = world.bookmarked[kind]
    // Someone the author blocks may not interact with what they may read by its audience (403).
    for (const visibility of VISIBILITIES.filter((v) => !READS[kind].includes(v)))
      t.equal(statuses[visibility], kind === 'blocked' && READS.stranger.includes(visibility) ? 403 : 404, kind)
    const { bookmarks } = expectOk(t, await get(kind, '/api/users/bookmark?limit=100'), 200, BookmarksReplySchema)
    t.strictSame(namesIn(world, idsOf(bookmarks)), names(READS[kind]), `${kind}: bookmarks`)
  }
})

await t.test('notifications, and their unread count, only about posts the reader may read', async (t) => {
  for (const kind of signedIn) {
    const res = await get(kind, '/api/notifications?limit=100')
    const { notifications, unread } = expectOk(t, res, 200, NotificationsReplySchema)
    const about = notifications.flatMap((n) => (n.post ? [n.post._id] : []))
    t.strictSame(
      namesIn(world, about).filter((name) => !name.endsWith('pinned')),
      names(READS[kind]),
      kind,
    )
    t.equal(unread, notifications.filter((n) => !n.read).length, `${kind}: the unread count counts what is listed`)
  }
})

await t.test('share pages carry preview tags of public posts alone', async (t) => {
  for (const visibility of VISIBILITIES) {
    const res = await api.app.inject({ method: 'GET', url: `/post-detail/${plain[visibility]._id}` })
    const tagged = res.body.includes('property="og:title"')
    t.strictSame([res.statusCode, tagged], visibility === 'public' ? [200, true] : [404, false], visibility)
  }
})

/** What the follower is shown of the author's followers post, on every path that shows it. */
async function followerSees(t: Test) {
  const id = plain.followers._id
  const quote = (await get('follower', `/api/posts/${quotes.followers._id}`)).json() as { post: Post }
  const feed = (await get('follower', '/api/feed?limit=100')).json() as { posts: Post[] }
  const { bookmarks } = (await get('follower', '/api/users/bookmark')).json() as { bookmarks: Post[] }
  const told = (await get('follower', '/api/notifications')).json() as {
    notifications: { post?: { _id: string } }[]
    unread: number
  }
  const { user } = (await get('follower', `/api/users/${author}`)).json() as { user: { postCount: number } }
  return {
    post: (await get('follower', `/api/posts/${id}`)).statusCode,
    comments: (await get('follower', `/api/comments/${id}`)).statusCode,
    likers: (await get('follower', `/api/posts/${id}/likes`)).statusCode,
    quote: quote.post.quote !== null,
    feed: idsOf(feed.posts).includes(id),
    profile: (await listed(t, 'follower', `/api/posts/user/${author}?limit=100`)).includes('followers'),
    likes: (await listed(t, 'follower', `/api/users/${author}/likes?limit=100`)).includes('followers'),
    bookmarks: idsOf(bookmarks).includes(id),
    notifications: told.notifications.some((n) => n.post?._id === id),
    unread: told.unread,
    postCount: user.postCount,
  }
}

await t.test('unfollowing hides the followers posts at once, everywhere; following again shows them', async (t) => {
  const { follower } = world.people
  const follow = (verb: string) =>
    api.as(follower.token, { method: 'POST', url: `/api/users/${verb}/${world.people.author.user._id}` })
  const before = await followerSees(t)
  const everywhere = { quote: true, feed: true, profile: true, likes: true, bookmarks: true, notifications: true }
  t.match(before, { post: 200, comments: 200, likers: 200, ...everywhere }, 'while following')
  await follow('unfollow')
  const nowhere = Object.fromEntries(Object.keys(everywhere).map((key) => [key, false]))
  // The plain and the pinned followers posts leave the count, and the notification about one leaves the unread.
  const counts = { unread: before.unread - 1, postCount: before.postCount - 2 }
  t.strictSame(await followerSees(t), { post: 404, comments: 404, likers: 404, ...nowhere, ...counts }, 'at once')
  await follow('follow')
  t.strictSame(await followerSees(t), before, 'and back once following again')
})

await t.test('the read cache never hands one reader what only another may read', async (t) => {
  const res = await api.as(world.people.author.token, {
    method: 'POST',
    url: '/api/posts',
    payload: { content: 'for my followers', visibility: 'followers' },
  })
  const { post } = res.json() as { post: Post }
  // Read first by those who may, so its view is kept, then by those who may not, in turns.
  for (const kind of ['author', 'follower', 'stranger', 'follower', 'signed out', 'author', 'blocked'] as const) {
    const status = (await get(kind, `/api/posts/${post._id}`)).statusCode
    t.equal(status, kind === 'author' || kind === 'follower' ? 200 : 404, `${kind}: its page`)
    const profile = await get(kind, `/api/posts/user/${author}?compact=1`)
    const shown = profile.statusCode === 200 && idsOf((profile.json() as { posts: Post[] }).posts).includes(post._id)
    t.equal(shown, kind === 'author' || kind === 'follower', `${kind}: the profile`)
  }
})
