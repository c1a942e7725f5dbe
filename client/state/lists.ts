import { proxy } from 'valtio'
import { errorMessage, isRetryable } from '../api/http.js'
import { apiGetFeed, apiGetPost, apiGetPosts, apiGetUserPosts } from '../api/posts.js'
import type { FeedSort, Post, UserSummary } from '../api/types.js'
import { apiGetTagPosts, apiSearchPosts } from '../api/search.js'
import { apiGetBookmarks } from '../api/users.js'
import { tagsIn } from '../../common/text-rules.js'
import { takeReturn } from '../lib/reading-position.js'
import { writeSort } from '../lib/storage.js'
import { feedSort, HOME_PAGE, storedSort, takeEarlyHome, type SortLabel } from './early-home.js'
import { cachePosts } from './post-cache.js'
import { session } from './session.js'

export type PostList = {
  /** What the list is of: the sort for home, the username for a profile. A change starts a new list. */
  key: string
  ids: string[]
  /** Others' new posts, held back until the reader asks, so the list never moves under them. */
  waiting: string[]
  nextCursor: string | null
  loading: boolean
  loaded: boolean
  done: boolean
  error: string | null
  /** Whether asking again may help: not after an answer that settles it, such as a 404. */
  retryable: boolean
}
export type ListName = 'home' | 'explore' | 'bookmarks' | 'profile' | 'search' | 'tag'
const LIST_NAMES = ['home', 'explore', 'bookmarks', 'profile', 'search', 'tag'] as const satisfies readonly ListName[]
type Fetch = (cursor: string | null) => Promise<{ posts: Post[]; nextCursor?: string | null }>

const emptyList = (key = ''): PostList => ({
  key,
  ids: [],
  waiting: [],
  nextCursor: null,
  loading: false,
  loaded: false,
  done: false,
  error: null,
  retryable: true,
})

const initial = () => ({
  home: emptyList(),
  explore: emptyList(),
  bookmarks: emptyList(),
  profile: emptyList(),
  /** Posts found by the search on screen: the key is the query. */
  search: emptyList(),
  /** A hashtag's posts: the key is the tag, lower case. */
  tag: emptyList(),
  detail: { id: '', loading: false, error: null as string | null, retryable: true },
  /** Latest unless the user chose otherwise before. */
  sort: storedSort(),
  /** Posts the home feed shows because someone reposted them: by whom, by post id. */
  reposted: {} as Record<string, { by: UserSummary; at: string }>,
})

export const lists = proxy(initial())

/**
 * Loads the first page of a list (fresh) or the next one; an answer for a list since replaced is dropped.
 * Coming back to a list through the history keeps every page it had (live events kept it current).
 */
async function loadPage(name: ListName, key: string, more: boolean, fetch: Fetch): Promise<void> {
  const kept = lists[name]
  if (!more && takeReturn() && kept.key === key && kept.loaded && !kept.error) return
  if (!more || kept.key !== key) lists[name] = emptyList(key)
  const list = lists[name]
  if (list.loading || list.done) return
  list.loading = true
  try {
    const reply = await fetch(list.nextCursor)
    if (lists[name] !== list) return
    cachePosts(reply.posts)
    const known = new Set(list.ids)
    list.ids.push(...reply.posts.map((p) => p._id).filter((id) => !known.has(id)))
    list.nextCursor = reply.nextCursor ?? null
    list.done = list.nextCursor === null
    list.error = null
  } catch (error) {
    if (lists[name] !== list) return
    // Said once, in the list itself, beside its Try again.
    list.error = errorMessage(error)
    list.retryable = isRetryable(error)
  } finally {
    list.loading = false
    list.loaded = true
  }
}

const EXPLORE_PAGE = 10
const PROFILE_PAGE = 20
const BOOKMARK_PAGE = 50
const SEARCH_PAGE = 20
const TAG_PAGE = 20

/**
 * The home feed's first page when it was asked for before its page was drawn: the order, how many
 * people I followed then (a follow since calls for a new page), and the load itself.
 */
let prefetchedHome: { sort: FeedSort; following: number | undefined; done: Promise<void> } | undefined

const homeSort = () => feedSort(lists.sort)
const followingCount = () => session.user?.following.length

export function loadHome(more = false): Promise<void> {
  const sort = homeSort()
  if (!more && prefetchedHome) {
    const started = prefetchedHome
    prefetchedHome = undefined
    // Asked for before my record arrived, it went by whom the server knew I followed: that counts as no change.
    const followed = started.following === undefined || started.following === followingCount()
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
  if (!home.loaded || lists.sort !== 'Latest' || home.ids.includes(post._id) || home.waiting.includes(post._id)) return
  noteRepost(post)
  cachePosts([post])
  ;(mine ? home.ids : home.waiting).unshift(post._id)
}

/**
 * Asks for the home feed's first page before the page is drawn (its code has just arrived); the page's
 * own first load then takes this one over instead of asking again.
 */
export function prefetchHome(): void {
  const following = followingCount()
  prefetchedHome = { sort: homeSort(), following, done: loadHome() }
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
 * `wait`, the waiting line above them. Returns whether any list took it.
 */
export function insertPost(post: Post, options: { inHome: boolean; wait?: boolean }): boolean {
  let placed = false
  const add = (list: PostList, atTop: boolean) => {
    if (!list.loaded || list.ids.includes(post._id) || list.waiting.includes(post._id)) return
    if (atTop) (options.wait ? list.waiting : list.ids).unshift(post._id)
    else if (list.done) list.ids.push(post._id)
    else return
    placed = true
  }
  if (options.inHome) add(lists.home, lists.sort === 'Latest')
  add(lists.explore, true)
  if (lists.profile.key === post.username) add(lists.profile, true)
  if (lists.tag.key && tagsIn(post.content).includes(lists.tag.key)) add(lists.tag, true)
  return placed
}

/** The 'N new posts' button: the waiting posts join the top of the list. */
export function showWaitingPosts(name: ListName): void {
  const list = lists[name]
  const waiting = new Set(list.waiting)
  list.ids = [...list.waiting, ...list.ids.filter((id) => !waiting.has(id))]
  list.waiting = []
}

export function dropPost(postId: string): void {
  for (const name of LIST_NAMES) {
    const list = lists[name]
    if (list.ids.includes(postId)) list.ids = list.ids.filter((id) => id !== postId)
    if (list.waiting.includes(postId)) list.waiting = list.waiting.filter((id) => id !== postId)
  }
}

/** A bookmark made or undone elsewhere (another tab, a live event); newest first, as the server lists them. */
export function markBookmark(postId: string, bookmarked: boolean): void {
  const list = lists.bookmarks
  if (!list.loaded) return
  const rest = list.ids.filter((id) => id !== postId)
  list.ids = bookmarked ? [postId, ...rest] : rest
}

export function setBookmarkList(posts: readonly Post[]): void {
  if (lists.bookmarks.loaded) lists.bookmarks.ids = posts.map((p) => p._id)
}

export function reset(): void {
  prefetchedHome = undefined
  Object.assign(lists, initial())
}
