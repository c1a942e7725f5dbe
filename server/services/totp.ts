import { createHash, randomBytes } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30
const DIGITS = 6
/** One step either side: a phone's clock a little off, or a code typed as it changed. */
const DRIFT = 1
const ISSUER = 'Chirp'
const RECOVERY_CODES = 10

const totpOf = (secret: string, username = '') =>
  new TOTP({
    issuer: ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  })

/** A new 160-bit secret (RFC 4226 §4's recommended length), in base32 as apps take it. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32

/** The `otpauth://totp/...` URI an authenticator app reads from the QR code. */
export const totpUri = (secret: string, username: string) => totpOf(secret, username).toString()

/** The code of the step `at` falls in (for tests and the operator's checks). */
export const totpCode = (secret: string, at: Date) => totpOf(secret).generate({ timestamp: at.getTime() })

/** The time step a code belongs to, within one step of `at`; undefined when it is none of them. */
export function totpStep(secret: string, code: string, at: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined
  const totp = totpOf(secret)
  const delta = totp.validate({ token: code, timestamp: at.getTime(), window: DRIFT })
  return delta === null ? undefined : totp.counter({ timestamp: at.getTime() }) + delta
}

/** Ten recovery codes, each 50 bits written as `xxxxx-xxxxx` in lower-case base32. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const code = new Secret({ buffer: randomBytes(10).buffer }).base32.slice(0, 10).toLowerCase()
    return `${code.slice(0, 5)}-${code.slice(5)}`
  })
}

/** How a recovery code is kept and looked up: its SHA-256, whatever case or spacing it is typed with. */
export const recoveryCodeHash = (code: string) =>
  createHash('sha256')
    .update(code.toLowerCase().replace(/[^a-z2-7]/g, ''))
    .digest('base64url')
