import { proxy } from 'valtio'
import { errorMessage, isRetryable } from '../api/http.js'
import { apiGetFeed, apiGetPost, apiGetPosts, apiGetUserLikes, apiGetUserPosts } from '../api/posts.js'
import type { FeedSort, Post, UserSummary } from '../api/types.js'
import { apiListFeed } from '../api/lists.js'
import { apiGetTagPosts, apiSearchPosts } from '../api/search.js'
import { apiGetBookmarks } from '../api/users.js'
import { tagsIn } from '../../common/text-rules.js'
import { takeReturn } from '../lib/reading-position.js'
import { writeSort } from '../lib/storage.js'
import { feedSort, HOME_PAGE, storedSort, takeEarlyHome, type SortLabel } from './early-home.js'
import { cachePosts, postCache } from './post-cache.js'
import { emptyPaged, loadPagedBy, type Paged } from './paged.js'
import { inOpenList } from './people-lists.js'
import { users } from './users.js'

/** A list of posts: their ids (the posts themselves are in the post cache); `waiting` holds others' new posts. */
type PostList = Paged<string>
export type ListName =
  'home' | 'explore' | 'bookmarks' | 'profile' | 'profileMedia' | 'profileLikes' | 'search' | 'tag' | 'listPosts'
const LIST_NAMES = [
  'home',
  'explore',
  'bookmarks',
  'profile',
  'profileMedia',
  'profileLikes',
  'search',
  'tag',
  'listPosts',
] as const satisfies readonly ListName[]
type Fetch = (cursor: string | null) => Promise<{ posts: Post[]; nextCursor?: string | null }>

const initial = () => ({
  home: emptyPaged<string>(),
  explore: emptyPaged<string>(),
  bookmarks: emptyPaged<string>(),
  profile: emptyPaged<string>(),
  /** A profile's posts with an image, and the posts its user likes: the key is the username. */
  profileMedia: emptyPaged<string>(),
  profileLikes: emptyPaged<string>(),
  /** Posts found by the search on screen: the key is the query. */
  search: emptyPaged<string>(),
  /** A hashtag's posts: the key is the tag, lower case. */
  tag: emptyPaged<string>(),
  /** One of my lists of people's timeline (DECISIONS §15): the key is the list's id. */
  listPosts: emptyPaged<string>(),
  detail: { id: '', loading: false, error: null as string | null, retryable: true },
  /** Latest unless the user chose otherwise before. */
  sort: storedSort(),
  /** Posts the home feed shows because someone reposted them: by whom, by post id. */
  reposted: {} as Record<string, { by: UserSummary; at: string }>,
})

export const lists = proxy(initial())

/**
 * Loads the first page of a list (fresh) or the next one, as every paged list does (paged.ts); the posts
 * go to the cache and the list keeps their ids. Coming back to a list through the history keeps every
 * page it had (live events kept it current).
 */
function loadPage(name: ListName, key: string, more: boolean, fetch: Fetch): Promise<void> {
  const kept = lists[name]
  if (!more && takeReturn() && kept.key === key && kept.loaded && !kept.error) return Promise.resolve()
  return loadPagedBy(
    lists,
    name,
    key,
    more,
    (id) => id,
    async (cursor) => {
      const reply = await fetch(cursor)
      cachePosts(reply.posts)
      return { items: reply.posts.map((post) => post._id), nextCursor: reply.nextCursor }
    },
  )
}

const EXPLORE_PAGE = 10
const PROFILE_PAGE = 20
const BOOKMARK_PAGE = 50
const SEARCH_PAGE = 20
const TAG_PAGE = 20
const LIST_PAGE = 20

/**
 * The home feed's first page when it was asked for before its page was drawn: the order, the version of
 * whom I follow then (a follow since calls for a new page), and the load itself.
 */
let prefetchedHome: { sort: FeedSort; follows: number; done: Promise<void> } | undefined

const homeSort = () => feedSort(lists.sort)

export function loadHome(more = false): Promise<void> {
  const sort = homeSort()
  if (!more && prefetchedHome) {
    const started = prefetchedHome
    prefetchedHome = undefined
    const followed = started.follows === users.followsVersion
    if (started.sort === sort && followed && lists.home.key === sort) return started.done
  }
  const early = more ? undefined : takeEarlyHome(sort)
  return loadPage('home', sort, more, async (cursor) => {
    const reply = await (early ?? apiGetFeed(sort, { limit: HOME_PAGE, cursor }))
    for (const post of reply.posts) noteRepost(post)
    return reply
  })
}

/** Remembers why the home feed shows a post that someone reposted. */
function noteRepost(post: Post): void {
  if (post.repostedBy && post.repostedAt) lists.reposted[post._id] = { by: post.repostedBy, at: post.repostedAt }
}

/**
 * A repost that reached this tab live: the home feed takes it, behind 'N new posts' unless it is my own,
 * when it does not show the post already.
 */
export function insertRepost(post: Post, mine: boolean): void {
  const home = lists.home
  if (!home.loaded || lists.sort !== 'Latest' || home.items.includes(post._id) || home.waiting.includes(post._id))
    return
  noteRepost(post)
  cachePosts([post])
  ;(mine ? home.items : home.waiting).unshift(post._id)
}

/**
 * Asks for the home feed's first page before the page is drawn (its code has just arrived); the page's
 * own first load then takes this one over instead of asking again.
 */
export function prefetchHome(): void {
  prefetchedHome = { sort: homeSort(), follows: users.followsVersion, done: loadHome() }
}

export function setSort(sort: SortLabel): Promise<void> {
  lists.sort = sort
  writeSort(sort)
  return loadHome()
}

export function loadExplore(more = false): Promise<void> {
  return loadPage('explore', 'all', more, (cursor) => apiGetPosts({ limit: EXPLORE_PAGE, cursor }))
}

export function loadProfilePosts(username: string, more = false): Promise<void> {
  return loadPage('profile', username, more, (cursor) => apiGetUserPosts(username, { limit: PROFILE_PAGE, cursor }))
}

export function loadProfileMedia(username: string, more = false): Promise<void> {
  return loadPage('profileMedia', username, more, (cursor) =>
    apiGetUserPosts(username, { limit: PROFILE_PAGE, cursor }, true),
  )
}

export function loadProfileLikes(username: string, more = false): Promise<void> {
  return loadPage('profileLikes', username, more, (cursor) =>
    apiGetUserLikes(username, { limit: PROFILE_PAGE, cursor }),
  )
}

export function loadBookmarks(more = false): Promise<void> {
  return loadPage('bookmarks', 'mine', more, async (cursor) => {
    const reply = await apiGetBookmarks({ limit: BOOKMARK_PAGE, cursor })
    return { posts: reply.bookmarks, nextCursor: reply.nextCursor }
  })
}

export function loadSearchPosts(q: string, more = false): Promise<void> {
  return loadPage('search', q, more, (cursor) => apiSearchPosts(q, { limit: SEARCH_PAGE, cursor }))
}

export function loadTagPosts(tag: string, more = false): Promise<void> {
  return loadPage('tag', tag, more, (cursor) => apiGetTagPosts(tag, { limit: TAG_PAGE, cursor }))
}

export function loadListPosts(listId: string, more = false): Promise<void> {
  return loadPage('listPosts', listId, more, (cursor) => apiListFeed(listId, { limit: LIST_PAGE, cursor }))
}

export async function loadPost(postId: string): Promise<void> {
  lists.detail = { id: postId, loading: true, error: null, retryable: true }
  try {
    const post = await apiGetPost(postId)
    cachePosts([post])
    // The route may name the post by `id`; the cache and the page use `_id`.
    if (lists.detail.id === postId) lists.detail = { id: post._id, loading: false, error: null, retryable: true }
  } catch (error) {
    if (lists.detail.id === postId) {
      lists.detail = { id: postId, loading: false, error: errorMessage(error), retryable: isRetryable(error) }
    }
  }
}

/**
 * A new post enters the lists where it belongs by their order: the top of newest-first lists, or, with
 * `wait`, the waiting line above them. Returns whether any list took it. Where it belongs depends on its
 * audience too (DECISIONS §12): Explore and tag pages list public posts only, and a direct post is in
 * conversations, never in a list of posts.
 */
export function insertPost(post: Post, options: { inHome: boolean; wait?: boolean }): boolean {
  if (post.visibility === 'direct') return false
  const listed = post.visibility === 'public'
  let placed = false
  const add = (list: PostList, atTop: boolean, wait = options.wait) => {
    if (!list.loaded || list.items.includes(post._id) || list.waiting.includes(post._id)) return
    if (atTop) (wait ? list.waiting : list.items).unshift(post._id)
    else if (list.done) list.items.push(post._id)
    else return
    placed = true
  }
  if (options.inHome) add(lists.home, lists.sort === 'Latest')
  if (listed) add(lists.explore, true)
  if (lists.profile.key === post.username) add(lists.profile, true)
  if (lists.profileMedia.key === post.username && post.mediaUrl) add(lists.profileMedia, true)
  if (listed && lists.tag.key && tagsIn(post.content).includes(lists.tag.key)) add(lists.tag, true)
  // The open list's timeline takes its people's posts, on top at once: it is read as it comes.
  if (lists.listPosts.key && inOpenList(post.username)) add(lists.listPosts, true, false)
  return placed
}

/**
 * A post pinned or unpinned by its author: an open profile of theirs reorders as the server orders it, the
 * pinned posts first (the latest pin on top), then the rest newest first. An unpinned post goes back to
 * its place by time, or, when that is past what is loaded, comes with a later page.
 */
export function placePinned(post: Post): void {
  const list = lists.profile
  if (!list.loaded || list.key !== post.username) return
  const byId = postCache.byId
  const rest = list.items.filter((id) => id !== post._id)
  if (post.pinned) {
    list.items = [post._id, ...rest]
    return
  }
  const newer = (id: string) => {
    const other = byId[id]
    if (!other) return false
    return (
      other.pinned === true || other.createdAt > post.createdAt || (other.createdAt === post.createdAt && id > post._id)
    )
  }
  const at = rest.findIndex((id) => !newer(id))
  if (at !== -1) list.items = [...rest.slice(0, at), post._id, ...rest.slice(at)]
  else list.items = list.done ? [...rest, post._id] : rest
}

/** The 'N new posts' button: the waiting posts join the top of the list. */
export function showWaitingPosts(name: ListName): void {
  const list = lists[name]
  const waiting = new Set(list.waiting)
  list.items = [...list.waiting, ...list.items.filter((id) => !waiting.has(id))]
  list.waiting = []
}

export function dropPost(postId: string): void {
  for (const name of LIST_NAMES) {
    const list = lists[name]
    if (list.items.includes(postId)) list.items = list.items.filter((id) => id !== postId)
    if (list.waiting.includes(postId)) list.waiting = list.waiting.filter((id) => id !== postId)
  }
}

/** A bookmark made or undone elsewhere (another tab, a live event); newest first, as the server lists them. */
export function markBookmark(postId: string, bookmarked: boolean): void {
  const list = lists.bookmarks
  if (!list.loaded) return
  const rest = list.items.filter((id) => id !== postId)
  list.items = bookmarked ? [postId, ...rest] : rest
}

export function setBookmarkList(posts: readonly Post[]): void {
  if (lists.bookmarks.loaded) lists.bookmarks.items = posts.map((p) => p._id)
}

export function reset(): void {
  prefetchedHome = undefined
  Object.assign(lists, initial())
}
