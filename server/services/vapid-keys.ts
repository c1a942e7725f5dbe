import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import webpush from 'web-push'

/** A VAPID key pair (RFC 8292): the P-256 public key, uncompressed, and the private key, both base64url. */
export interface VapidKeyPair {
  publicKey: string
  privateKey: string
}

/** A new key pair, as the JSON it is kept as. */
export const freshVapidKeys = () => JSON.stringify(webpush.generateVAPIDKeys())

/** The key pair kept as JSON; throws when it is not one. */
export function vapidKeysOf(json: string): VapidKeyPair {
  const keys = JSON.parse(json) as Partial<VapidKeyPair>
  if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string')
    throw new Error('the stored VAPID keys are damaged')
  return { publicKey: keys.publicKey, privateKey: keys.privateKey }
}

/** The key pair kept in the data directory, made there the first time, readable only by its owner. */
export async function fileVapidKeys(dataDir: string): Promise<VapidKeyPair> {
  const file = path.join(dataDir, 'vapid-keys.json')
  try {
    return vapidKeysOf(await readFile(file, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  try {
    await writeFile(file, freshVapidKeys(), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    // Another start won the race: its keys are the ones.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return vapidKeysOf(await readFile(file, 'utf8'))
}
