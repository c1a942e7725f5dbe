import type { Registration } from '../config.js'
import type { Services } from '../services/index.js'

/** What the Mastodon client API is registered with. */
export interface MastodonOptions {
  services: Services
  /** The address people reach Chirp at, without a trailing slash (PUBLIC_URL). */
  publicUrl: string
  registration: Registration
}
