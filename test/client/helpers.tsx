/**
 * Shared by the client tests: a stand-in for the server behind globalThis.fetch, sample
 * records, and a way to render the app at a given location with a clean state.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import type { PostCardProps } from '../../client/components/post-card.js'
import type { Comment, Post, User } from '../../client/api/types.js'
import { reset as resetSession, session, setCurrentUser } from '../../client/state/session.js'
import { STATE_RESETS } from '../../client/state/sign-out.js'
import { expectedCode } from '../helpers/error-codes.js'

export type ApiRequest = { method: string; path: string; query: URLSearchParams; body: unknown; headers: Headers }
export type ApiReply = { status?: number; body?: unknown; headers?: Record<string, string> }
type Handler = (request: ApiRequest) => ApiReply | Promise<ApiReply>

/**
 * Answers fetch calls from a table keyed 'METHOD /api/path'. An unlisted call answers 404, and
 * every call is recorded, so a test can check both what the client asked and what it showed.
 */
export function stubApi(routes: Record<string, Handler>) {
  const calls: ApiRequest[] = []
  const original = globalThis.fetch
  globalThis.fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://localhost:3000')
    const method = (init.method ?? 'GET').toUpperCase()
    const raw = init.body
    const body: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw
    const request = { method, path: url.pathname, query: url.searchParams, body, headers: new Headers(init.headers) }
    calls.push(request)
    const handler = routes[`${method} ${url.pathname}`]
    const reply = handler
      ? await handler(request)
      : { status: 404, body: { errors: [`not stubbed: ${method} ${url.pathname}`] } }
    return new Response(JSON.stringify(reply.body ?? {}), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
    })
  }) as typeof fetch
  return { calls, restore: () => void (globalThis.fetch = original) }
}

export const ok = (body: unknown): ApiReply => ({ status: 200, body })
export const fail = (status: number, message: string): ApiReply => ({
  status,
  body: { errors: [message], code: expectedCode(message) },
})

const NOW = new Date('2026-01-10T12:00:00.000Z').toISOString()

/**
 * What the Settings page reads when it opens, answered empty, and a profile edit that changes `me` as
 * the server would; `more` adds or replaces routes.
 */
export function settingsApi(me: User, more: Record<string, Handler> = {}) {
  return stubApi({
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
    'GET /api/account/2fa': () => ok({ enabled: false }),
    'GET /api/account/sessions': () => ok({ sessions: [] }),
    'GET /api/users/blocks': () => ok({ users: [], nextCursor: null }),
    'GET /api/users/mutes': () => ok({ users: [], nextCursor: null }),
    'POST /api/users/edit': (request) => {
      const { userData } = request.body as { userData: Record<string, unknown> }
      Object.assign(me, userData)
      return ok({ user: me })
    },
    ...more,
  })
}

export function makeUser(overrides: Partial<User> = {}): User {
  const username = overrides.username ?? 'guest'
  const avatarURL = overrides.avatarURL ?? '/avatars/avatar-1.svg'
  const website = overrides.website ?? ''
  return {
    _id: `id-${username}`,
    username,
    firstName: 'Guest',
    lastName: 'User',
    displayName: '',
    avatarURL,
    bannerURL: '',
    bio: '',
    website,
    locked: false,
    portfolio: website,
    avatar: avatarURL,
    createdAt: NOW,
    updatedAt: NOW,
    bookmarks: [],
    following: [],
    followers: [],
    ...overrides,
  }
}

export function summary(user: User) {
  const { _id, username, firstName, lastName, avatarURL } = user
  return { _id, username, firstName, lastName, avatarURL }
}

let postNumber = 0
export function makePost(overrides: Partial<Post> = {}): Post {
  postNumber += 1
  const id = overrides._id ?? `post-${postNumber}`
  return {
    _id: id,
    id,
    username: 'maya',
    firstName: 'Maya',
    lastName: 'Lin',
    avatarURL: '/avatars/avatar-2.svg',
    content: `Post number ${postNumber}`,
    visibility: 'public',
    mediaUrl: '',
    type: '',
    media: [],
    createdAt: NOW,
    updatedAt: NOW,
    likes: { likeCount: 0, likedBy: [], dislikedBy: [] },
    comments: [],
    commentCount: overrides.comments?.length ?? 0,
    card: null,
    repostCount: 0,
    reposted: false,
    ...overrides,
  }
}

/** A comment by Maya unless told otherwise; its _id is made from its text. */
export function makeComment(text: string, overrides: Partial<Comment> = {}): Comment {
  return {
    _id: `c-${text}`,
    username: 'maya',
    firstName: 'Maya',
    lastName: 'Lin',
    avatarURL: '/avatars/avatar-2.svg',
    text,
    votes: { upvotedBy: [], downvotedBy: [] },
    createdAt: NOW,
    updatedAt: NOW,
    replyTo: null,
    ...overrides,
  }
}

/** Every store back to its start, and no session in storage. */
export function resetAll(): void {
  localStorage.clear()
  for (const [name, reset] of Object.entries(STATE_RESETS)) {
    // A test starts knowing nothing, not even what a sign-out keeps (whether there is a guest button).
    if (name === 'session') resetSession()
    else reset?.()
  }
}

/** Signs `user` (their own record, as the server sends it) in as if a login had just happened. */
export function signInAs(user: User): void {
  localStorage.setItem('token', 'test-token')
  localStorage.setItem('username', user.username)
  session.token = 'test-token'
  session.username = user.username
  setCurrentUser(user)
}

/** The side panels' reads and the signed-in person's own profile, answered empty, for a page under test. */
export function sideRoutes(user: User): Record<string, Handler> {
  return {
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/tags/trending': () => ok({ tags: [] }),
    [`GET /api/users/${user.username}`]: () => ok({ user }),
  }
}

/** Renders at `path` on an in-memory location; `location.history` records where the app went. */
export function renderAt(path: string, ui: ReactNode) {
  const location = memoryLocation({ path, record: true })
  const view = render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      {ui}
    </Router>,
  )
  return { ...view, location }
}

/**
 * Waits until `condition` holds, for as long as the DOM's other waits do (test/client/dom.ts) unless
 * `timeout` says otherwise. The failure while waiting is a plain error on purpose: an
 * assertion comparing DOM nodes would render the whole jsdom tree into its message on every try.
 */
export async function until(condition: () => boolean, timeout?: number): Promise<void> {
  await waitFor(
    () => {
      if (!condition()) throw new Error('still waiting')
    },
    { timeout },
  )
}

/**
 * Asserts the tab title, once an effect has had the time to set it: a page sets its title after it
 * draws, and on a busy machine the drawing may be seen first.
 */
export async function expectTitle(t: { equal: (found: unknown, wanted: unknown) => unknown }, title: string) {
  await until(() => document.title === title).catch(() => undefined)
  t.equal(document.title, title)
}

/** Fills the signup form as Ada Lovelace (username `ada`); the button is left to the test. */
export function fillSignupForm(): void {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })
  fill('First Name', 'Ada')
  fill('Last Name', 'Lovelace')
  fill('Email', 'ada@example.com')
  fill('Username', 'ada')
  fill('Password', 'analytical')
}

/** Opens the menu behind the button named `menu` and picks its item named `item`. */
export function choose(menu: string, item: string): void {
  fireEvent.click(screen.getByRole('button', { name: menu }))
  fireEvent.click(screen.getByRole('menuitem', { name: item }))
}

const noop = () => {}

/** A post card's props with every callback a no-op: Maya's post, seen by guest, unless overridden. */
export function cardProps(overrides: Partial<PostCardProps> = {}): PostCardProps {
  return {
    post: makePost({ username: 'maya', content: 'Hello from Maya' }),
    me: 'guest',
    liked: false,
    bookmarked: false,
    commentsOpen: false,
    onToggleComments: noop,
    onToggleLike: noop,
    onToggleRepost: noop,
    onQuote: noop,
    onShare: noop,
    onToggleBookmark: noop,
    onEdit: noop,
    onDelete: noop,
    onOpenMedia: noop,
    comments: { onAdd: async () => true, onEdit: async () => true, onDelete: noop },
    ...overrides,
  }
}

/**
 * An IntersectionObserver the test drives (jsdom has none), so a list's sentinel can be scrolled into
 * view by hand: `scrollToEnd()` tells every sentinel still watching that it shows.
 */
export function fakeIntersectionObserver(t: { teardown(fn: () => unknown): void }) {
  const observers: { callback: IntersectionObserverCallback; connected: boolean }[] = []
  globalThis.IntersectionObserver = class {
    record: { callback: IntersectionObserverCallback; connected: boolean }
    constructor(callback: IntersectionObserverCallback) {
      this.record = { callback, connected: true }
      observers.push(this.record)
    }
    observe() {}
    disconnect() {
      this.record.connected = false
    }
  } as unknown as typeof IntersectionObserver
  t.teardown(() => void delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver)
  const watching = () => observers.filter((o) => o.connected)
  return {
    watching,
    scrollToEnd() {
      for (const o of watching())
        o.callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver)
    },
  }
}

/** The words of each option of the open "Suggestions" listbox, once it shows. */
export async function suggestionTexts(): Promise<(string | null)[]> {
  const list = await screen.findByRole('listbox', { name: 'Suggestions' })
  return Array.from(list.querySelectorAll('[role="option"]'), (option) => option.textContent)
}
