import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Keys of the server's own, derived from the token secret, for what the account calls keep or hand out:
 * a dump of the database alone holds neither a usable TOTP secret nor the means to forge a reset link.
 * Each purpose has a key of its own (HKDF), so none can stand in for another or for a token's signature.
 */
export interface AccountSecrets {
  /** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url. */
  seal(plain: string): string
  /** The sealed text, or undefined when it was not sealed with this key (the token secret changed). */
  open(sealed: string): string | undefined
  /** A person's private federation key, sealed as `seal` does but under a key of its own. */
  sealActorKey(plain: string): string
  /** The opened private key, or undefined as with `open`. */
  openActorKey(sealed: string): string | undefined
  /** A MAC for a password-reset link. */
  resetMac(message: string): Buffer
  /** Whether `mac` is resetMac(message), in constant time. */
  checkResetMac(message: string, mac: Buffer): boolean
  /** A MAC for a mail's unsubscribe link. */
  unsubscribeMac(message: string): Buffer
  /** Whether `mac` is unsubscribeMac(message), in constant time. */
  checkUnsubscribeMac(message: string, mac: Buffer): boolean
}

const keyFor = (secret: string, purpose: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'chirp account secrets', purpose, 32))

/** AES-256-GCM under `key`: `v1.<iv>.<tag>.<ciphertext>`, base64url. */
function sealWith(key: Buffer, plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const text = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return ['v1', iv, cipher.getAuthTag(), text]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.')
}

function openWith(key: Buffer, sealed: string): string | undefined {
  const [version, iv, tag, text] = sealed.split('.')
  if (version !== 'v1' || iv === undefined || tag === undefined || text === undefined) return undefined
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(text, 'base64url')), decipher.final()]).toString('utf8')
  } catch {
    return undefined
  }
}

export function createAccountSecrets(tokenSecret: string): AccountSecrets {
  const sealKey = keyFor(tokenSecret, 'two-factor seal')
  const actorKey = keyFor(tokenSecret, 'actor key seal')
  const resetKey = keyFor(tokenSecret, 'password reset')
  const resetMac = (message: string) => createHmac('sha256', resetKey).update(message).digest()
  const unsubscribeKey = keyFor(tokenSecret, 'mail unsubscribe')
  const unsubscribeMac = (message: string) => createHmac('sha256', unsubscribeKey).update(message).digest()
  const same = (mac: Buffer, expected: Buffer) => mac.length === expected.length && timingSafeEqual(mac, expected)
  return {
    seal: (plain) => sealWith(sealKey, plain),
    open: (sealed) => openWith(sealKey, sealed),
    sealActorKey: (plain) => sealWith(actorKey, plain),
    openActorKey: (sealed) => openWith(actorKey, sealed),
    resetMac,
    checkResetMac: (message, mac) => same(mac, resetMac(message)),
    unsubscribeMac,
    checkUnsubscribeMac: (message, mac) => same(mac, unsubscribeMac(message)),
  }
}
