import { LIMITS } from '../../common/limits.js'
import type { Registration } from '../config.js'
import { MAX_UPLOAD_BYTES } from '../schemas/media.js'
import { chirpVersion } from '../version.js'

/** The Mastodon version whose API this answers, in the form apps parse (DECISIONS §17). */
const VERSION = `4.3.0 (compatible; Chirp ${chirpVersion()})`

const TITLE = 'Chirp'
const DESCRIPTION = 'Chirp: a short-post social network with live updates.'

/** What a post, its image and its poll may hold, from the limits Chirp's services keep. */
function limits() {
  return {
    accounts: { max_featured_tags: 0, max_pinned_statuses: 3 },
    statuses: { max_characters: LIMITS.postContent, max_media_attachments: 4, characters_reserved_per_url: 23 },
    media_attachments: {
      supported_mime_types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
      description_limit: LIMITS.mediaAlt,
      image_size_limit: MAX_UPLOAD_BYTES,
      image_matrix_limit: 50_000_000,
      video_size_limit: 0,
      video_frame_rate_limit: 0,
      video_matrix_limit: 0,
    },
    polls: {
      max_options: LIMITS.poll.maxOptions,
      max_characters_per_option: LIMITS.poll.option,
      min_expiration: LIMITS.poll.minDays * 86_400,
      max_expiration: LIMITS.poll.maxDays * 86_400,
    },
  }
}

export interface InstanceFacts {
  publicUrl: string
  registration: Registration
  community: { users: number; posts: number }
}

const streamingOf = (publicUrl: string) => publicUrl.replace(/^http/, 'ws')

/** Mastodon's Instance entity, version 1. */
export function instanceV1({ publicUrl, registration, community }: InstanceFacts) {
  return {
    uri: new URL(publicUrl).host,
    title: TITLE,
    short_description: DESCRIPTION,
    description: DESCRIPTION,
    email: '',
    version: VERSION,
    urls: { streaming_api: streamingOf(publicUrl) },
    stats: { user_count: community.users, status_count: community.posts, domain_count: 0 },
    thumbnail: `${publicUrl}/icon-512.png`,
    languages: ['en'],
    registrations: registration !== 'closed',
    approval_required: registration === 'approval',
    invites_enabled: registration === 'invite',
    configuration: limits(),
    contact_account: null,
    rules: [],
  }
}

/** Mastodon's Instance entity, version 2. */
export function instanceV2({
  publicUrl,
  registration,
  vapidKey,
}: Omit<InstanceFacts, 'community'> & { vapidKey: string }) {
  return {
    domain: new URL(publicUrl).host,
    title: TITLE,
    version: VERSION,
    // Where Chirp's source is depends on who runs it: its own address stands for it.
    source_url: publicUrl,
    description: DESCRIPTION,
    // Chirp keeps no record of who was active when: nobody is counted.
    usage: { users: { active_month: 0 } },
    thumbnail: { url: `${publicUrl}/icon-512.png` },
    icon: [
      { src: `${publicUrl}/icon-192.png`, size: '192x192' },
      { src: `${publicUrl}/icon-512.png`, size: '512x512' },
    ],
    languages: ['en'],
    configuration: {
      urls: { streaming: streamingOf(publicUrl) },
      ...limits(),
      translation: { enabled: false },
      vapid: { public_key: vapidKey },
    },
    registrations: {
      enabled: registration !== 'closed',
      approval_required: registration === 'approval',
      message: null,
      url: null,
    },
    api_versions: { mastodon: 2 },
    contact: { email: '', account: null },
    rules: [],
  }
}
