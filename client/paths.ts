/** The tabs of the search page: posts (the default) and people. */
export type SearchTab = 'posts' | 'users'

/**
 * Every route of the app in one table: `path` is the wouter pattern, `href` builds a link to it.
 * Links elsewhere in the client use these builders rather than spelling paths by hand.
 */
export const paths = {
  home: { path: '/', href: () => '/' },
  explore: { path: '/explore', href: () => '/explore' },
  bookmark: { path: '/bookmark', href: () => '/bookmark' },
  /** My posts waiting to be published (DECISIONS §15). */
  scheduled: { path: '/scheduled', href: () => '/scheduled' },
  profile: {
    path: '/profile/:username',
    /**
     * A person of another server keeps the `@` and `:` of `name@host:port` as they are: both may stand in a
     * path, and the router decodes only what decodeURI does, which leaves `%40` and `%3A` encoded.
     */
    href: (username: string) => `/profile/${encodeURIComponent(username).replace(/%40/g, '@').replace(/%3A/g, ':')}`,
  },
  postDetail: {
    path: '/post-detail/:postId',
    href: (postId: string) => `/post-detail/${encodeURIComponent(postId)}`,
  },
  notifications: { path: '/notifications', href: () => '/notifications' },
  /** My lists of people I follow (DECISIONS §15), and one list's timeline. */
  lists: { path: '/lists', href: () => '/lists' },
  list: { path: '/lists/:listId', href: (listId: string) => `/lists/${encodeURIComponent(listId)}` },
  /** The people asking to follow my locked account (DECISIONS §12). */
  followRequests: { path: '/follow-requests', href: () => '/follow-requests' },
  /** Direct messages: my conversations, and one of them. */
  messages: { path: '/messages', href: () => '/messages' },
  conversation: {
    path: '/messages/:conversationId',
    href: (conversationId: string) => `/messages/${encodeURIComponent(conversationId)}`,
  },
  settings: { path: '/settings', href: () => '/settings' },
  /** Moderators and admins only (DECISIONS §8): the queue, people waiting or moderated, invites, the audit log. */
  moderation: { path: '/moderation', href: () => '/moderation' },
  moderationUsers: { path: '/moderation/users', href: () => '/moderation/users' },
  moderationUser: {
    path: '/moderation/users/:id',
    href: (id: string) => `/moderation/users/${encodeURIComponent(id)}`,
  },
  moderationInvites: { path: '/moderation/invites', href: () => '/moderation/invites' },
  moderationLog: { path: '/moderation/log', href: () => '/moderation/log' },
  moderationEmojis: { path: '/moderation/emojis', href: () => '/moderation/emojis' },
  search: {
    path: '/search',
    /** `/search?q=…&type=…`: the query and the tab are in the address, so a search can be shared and reloaded. */
    href: (query: { q?: string; type?: SearchTab } = {}) => {
      const params = new URLSearchParams()
      if (query.q) params.set('q', query.q)
      if (query.type && query.type !== 'posts') params.set('type', query.type)
      const search = params.toString()
      return search ? `/search?${search}` : '/search'
    },
  },
  tag: {
    path: '/tag/:tag',
    href: (tag: string) => `/tag/${encodeURIComponent(tag)}`,
  },
  /** Without a token: ask for a link by mail. With the mailed `?token=`: choose a new password. */
  resetPassword: { path: '/reset-password', href: () => '/reset-password' },
  login: { path: '/login', href: (from?: string) => withFrom('/login', from) },
  signup: { path: '/signup', href: (from?: string) => withFrom('/signup', from) },
} as const

/** `?from=` is read back only through `returnPath`, which judges it. */
function withFrom(base: string, from: string | undefined): string {
  return from && from !== '/' ? `${base}?from=${encodeURIComponent(from)}` : base
}

/** `value` read as a URL against this site, or null when it is none or names another site. */
function onThisSite(value: string, origin: string): URL | null {
  try {
    const url = new URL(value, origin)
    return url.origin === origin ? url : null
  } catch {
    return null
  }
}

/**
 * Where to go after login or signup; `?from=` is read only through this (use-return-path.ts). Browsers
 * drop tabs and line breaks, read backslashes as slashes and resolve `..` when they parse a URL, so a
 * text check on the raw value passes what the browser then takes for another site, and
 * history.pushState throws on it. So `from` is parsed against this site, and what is kept is the path
 * that parse leaves (`/..//evil.example` leaves `//evil.example`), parsed once more: it is kept only if
 * it reads as the very same URL on this site, and anything else leads home.
 */
export function returnPath(from: string | null, origin: string = window.location.origin): string {
  const url = from ? onThisSite(from, origin) : null
  if (!url) return '/'
  const path = `${url.pathname}${url.search}${url.hash}`
  if (onThisSite(path, origin)?.href !== url.href) return '/'
  const signedOutPages: readonly string[] = [paths.login.path, paths.signup.path, paths.resetPassword.path]
  if (signedOutPages.includes(url.pathname)) return '/'
  return path
}
