/**
 * Whether this server lets visitors without an account read post, profile and tag pages
 * (PUBLIC_READ): the server says so in the head of those pages, read once, as the app starts.
 */
export function publicRead(): boolean {
  return document.querySelector('meta[name="chirp:public-read"]')?.getAttribute('content') === 'true'
}
