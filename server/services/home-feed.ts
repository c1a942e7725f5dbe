import type { FeedSort, Post } from '../schemas/posts.js'
import { encodeCursor } from '../store/cursor.js'
import type { PostRecord, StoreReader } from '../store/types.js'
import { postViews, variantOf, type Reader } from './post-views.js'
import { summaryOf } from './views.js'
import type { Hidden } from './visibility.js'
import { shownTo } from './audience-reads.js'

/**
 * The home timeline (DECISIONS §10): the reader's posts and those of everyone they follow, each at its
 * own time, and the posts any of them reposted, each once, at its first such repost, with `repostedBy`
 * and `repostedAt`. A post by someone the reader follows (or by the reader) shows as itself and never as
 * a repost, as Mastodon leaves out a boost of what the timeline holds already. The two kinds of entry are
 * read from the store as two lists ordered by the same (time, post id) key and merged here, so one
 * cursor continues both and no entry is read twice or missed. Most liked first (`trending`) lists
 * posts alone, as it orders by likes rather than by when anything reached the feed.
 *
 * Each post shows as its audience allows (DECISIONS §12): the feed's authors' public, unlisted and
 * followers posts, never a direct one (those live in conversations), and reposts only of posts anyone
 * may read (the store keeps both rules inside its reads).
 */

interface Entry {
  post: PostRecord
  at: string
  by?: string
}

const compareEntries = (a: Entry, b: Entry) =>
  a.at < b.at ? -1 : a.at > b.at ? 1 : a.post._id < b.post._id ? -1 : a.post._id > b.post._id ? 1 : 0

export async function homeFeed(
  store: StoreReader,
  userId: string,
  { sort, limit, cursor }: { sort: FeedSort; limit?: number | undefined; cursor?: string | undefined },
  reader: Reader & { hidden: Hidden },
): Promise<{ posts: Post[]; nextCursor: string | null }> {
  const hide = reader.hidden.people
  const page = { ...(limit !== undefined ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}), hide }
  const audience = shownTo(userId)
  if (sort === 'trending') {
    const uncounted = reader.hidden.suspended
    const { items, nextCursor } = await store.listPosts({ sort, feedOf: userId, ...page, uncounted, audience })
    return { posts: await postViews(store, items, reader), nextCursor }
  }
  const [own, shared] = await Promise.all([
    store.listPosts({ sort, feedOf: userId, ...page, audience }),
    store.listFeedReposts(userId, { sort, ...page }),
  ])
  const direction = sort === 'oldest' ? 1 : -1
  const merged: Entry[] = [
    ...own.items.map((post) => ({ post, at: post.createdAt })),
    ...shared.items.map(({ post, by, at }) => ({ post, at, by })),
  ].sort((a, b) => direction * compareEntries(a, b))
  const entries = limit === undefined ? merged : merged.slice(0, limit)
  const last = entries[entries.length - 1]
  const more = entries.length < merged.length || own.nextCursor !== null || shared.nextCursor !== null
  const nextCursor = more && last ? encodeCursor([last.at, last.post._id]) : null

  const views = await postViews(
    store,
    entries.map((entry) => entry.post),
    reader,
  )
  const reposters = new Map(
    (await store.getUserSummaries([...new Set(entries.flatMap((entry) => entry.by ?? []))])).map((user) => [
      user._id,
      summaryOf(user),
    ]),
  )
  const posts = views.map((view, i) => {
    const entry = entries[i]
    const by = entry?.by === undefined ? undefined : reposters.get(entry.by)
    if (!entry || !by) return view
    return variantOf(view, `repost ${entry.at} ${JSON.stringify(by)}`, (v) => ({
      ...v,
      repostedBy: by,
      repostedAt: entry.at,
    }))
  })
  return { posts, nextCursor }
}
