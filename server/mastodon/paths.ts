/**
 * The paths of the Mastodon client API that apps call with a bearer token or their client's secret, never
 * with anything a browser sends on its own: they answer any origin (CORS), and the refusal of cross-site
 * writes (plugins/cross-site.ts) has nothing to protect there. The sign-in page, /oauth/authorize, is not
 * one of them: it is a page of this site, with its own form.
 */
const API_PATHS =
  /^\/(api\/v[12](\/|\?|$)|oauth\/(token|revoke)(\/|\?|$)|\.well-known\/oauth-authorization-server(\?|$))/

export const isMastodonApiPath = (url: string) => API_PATHS.test(url)
