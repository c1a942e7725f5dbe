/**
 * Request URLs as the log may keep them. Chirp never puts a credential in a URL, but clients do: a
 * stream ticket by design, and tokens by mistake or habit (`?token=`, `?access_token=`, a JWT pasted
 * into a path). Whoever reads the log must not be able to act as them.
 */

/** Parameter names that carry a credential, compared without regard to case; `code` is OAuth's grant. */
const SECRET_NAME =
  /^(?:ticket|jwt|auth|authorization|bearer|code|key|sig|signature)$|token|secret|passw(?:or)?d|api_?key|credential|session/i
/** A JSON Web Token: three base64url parts, the header a JSON object (`{"` encodes as `eyJ`). */
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/
const REDACTED = '[redacted]'

/** The decoded text, or undefined when it is not valid percent-encoding. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return undefined
  }
}

const looksSecret = (value: string) => JWT.test(value) || /^bearer\s/i.test(value)

function redactPair(pair: string): string {
  const eq = pair.indexOf('=')
  const rawName = eq === -1 ? pair : pair.slice(0, eq)
  const rawValue = eq === -1 ? '' : pair.slice(eq + 1)
  // Names and values are judged decoded, as Fastify's query parser will read them (`%74icket` is a
  // ticket); a name that cannot be decoded cannot be judged, so its value is hidden.
  const name = decoded(rawName)
  const value = decoded(rawValue) ?? rawValue
  if (name === undefined) return eq === -1 ? pair : `${rawName}=${REDACTED}`
  if (looksSecret(name)) return REDACTED
  return (eq !== -1 && SECRET_NAME.test(name)) || looksSecret(value) ? `${rawName}=${REDACTED}` : pair
}

/** `url` with the value of every credential-like query parameter, and every JWT-like path segment, hidden. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  const safePath = path
    .split('/')
    .map((segment) => (looksSecret(segment) || looksSecret(decoded(segment) ?? '') ? REDACTED : segment))
    .join('/')
  if (q === -1) return safePath
  return `${safePath}?${url
    .slice(q + 1)
    .split('&')
    .map(redactPair)
    .join('&')}`
}
