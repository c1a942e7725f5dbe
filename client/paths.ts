/**
 * Every route of the app in one table: `path` is the wouter pattern, `href` builds a link to it.
 * Links elsewhere in the client use these builders rather than spelling paths by hand.
 */
export const paths = {
  home: { path: '/', href: () => '/' },
  explore: { path: '/explore', href: () => '/explore' },
  bookmark: { path: '/bookmark', href: () => '/bookmark' },
  profile: {
    path: '/profile/:username',
    href: (username: string) => `/profile/${encodeURIComponent(username)}`,
  },
  postDetail: {
    path: '/post-detail/:postId',
    href: (postId: string) => `/post-detail/${encodeURIComponent(postId)}`,
  },
  login: { path: '/login', href: (from?: string) => withFrom('/login', from) },
  signup: { path: '/signup', href: (from?: string) => withFrom('/signup', from) },
} as const

function withFrom(base: string, from: string | undefined): string {
  return from && from !== '/' ? `${base}?from=${encodeURIComponent(from)}` : base
}

/**
 * Where to go after login or signup. Only a same-site path is followed, so a crafted
 * `?from=//evil.example` link cannot send a user off the site.
 */
export function returnPath(from: string | null): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/'
  const route = from.split(/[?#]/)[0]
  if (route === paths.login.path || route === paths.signup.path) return '/'
  return from
}
