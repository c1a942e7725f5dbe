import type { Visibility } from '../../common/audience.js'
import { AppError } from '../errors.js'
import type { User } from '../schemas/users.js'
import type { Services } from '../services/index.js'
import type { Account, CredentialAccount } from './schemas.js'

/** Chirp's audiences by Mastodon's names: `followers` is Mastodon's `private`. */
export const VISIBILITY_NAMES: Record<Visibility, string> = {
  public: 'public',
  unlisted: 'unlisted',
  followers: 'private',
  direct: 'direct',
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] as string)

/** Plain text as Mastodon's HTML: paragraphs at blank lines, line breaks within them. */
function htmlOf(text: string): string {
  const paragraphs = text.split(/\n{2,}/).filter((part) => part.trim() !== '')
  return paragraphs.map((part) => `<p>${escapeHtml(part).replace(/\n/g, '<br>')}</p>`).join('')
}

/** Custom emoji as Mastodon's CustomEmoji entities: absolute addresses, each offered in the picker. */
export const mastodonEmojis = (publicUrl: string, emojis: readonly { shortcode: string; url: string }[] = []) =>
  emojis.map(({ shortcode, url }) => {
    const address = absolute(publicUrl, url)
    return { shortcode, url: address, static_url: address, visible_in_picker: true, category: null }
  })

/** An address as Mastodon gives it: absolute, against the public URL when it is one of Chirp's own paths. */
export const absolute = (publicUrl: string, url: string) => (url === '' ? '' : new URL(url, `${publicUrl}/`).href)

const displayNameOf = (user: User) =>
  user.displayName !== '' ? user.displayName : [user.firstName, user.lastName].filter((name) => name !== '').join(' ')

/** Mastodon's permission bits: an admin has all of them (bit 1), a moderator reports and users. */
const ROLES = {
  admin: { id: '3', name: 'Admin', color: '', permissions: '1', highlighted: true },
  moderator: { id: '2', name: 'Moderator', color: '', permissions: '1040', highlighted: true },
  user: { id: '-99', name: '', color: '', permissions: '0', highlighted: false },
} as const

/** A person's Account entity, from their view as Chirp's services give it. */
export function accountOf(user: User, publicUrl: string): Account {
  const profile = `${publicUrl}/profile/${encodeURIComponent(user.username)}`
  const avatar = absolute(publicUrl, user.avatarURL)
  const header = absolute(publicUrl, user.bannerURL)
  const website = user.website
  const role = user.role === 'admin' || user.role === 'moderator' ? ROLES[user.role] : undefined
  return {
    id: user._id,
    username: user.username,
    acct: user.username,
    url: profile,
    uri: profile,
    display_name: displayNameOf(user),
    note: htmlOf(user.bio),
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    locked: user.locked,
    fields:
      website === ''
        ? []
        : [
            {
              name: 'Website',
              value: `<a href="${escapeHtml(website)}" rel="me nofollow noopener noreferrer" target="_blank">${escapeHtml(website)}</a>`,
              verified_at: null,
            },
          ],
    emojis: mastodonEmojis(publicUrl, user.emojis),
    bot: false,
    group: false,
    discoverable: true,
    noindex: false,
    indexable: true,
    hide_collections: false,
    created_at: user.createdAt,
    last_status_at: null,
    statuses_count: user.postCount ?? 0,
    followers_count: user.followers.length,
    following_count: user.following.length,
    roles: role ? [{ id: role.id, name: role.name, color: role.color }] : [],
  }
}

/** The signed-in person's own account: their account, with the source of what they wrote and their role. */
function credentialAccountOf(user: User, publicUrl: string, followRequests: number): CredentialAccount {
  return {
    ...accountOf(user, publicUrl),
    source: {
      note: user.bio,
      fields: user.website === '' ? [] : [{ name: 'Website', value: user.website, verified_at: null }],
      privacy: VISIBILITY_NAMES[user.defaultVisibility ?? 'public'],
      sensitive: false,
      language: '',
      follow_requests_count: followRequests,
      hide_collections: false,
      discoverable: true,
      indexable: true,
      attribution_domains: [],
    },
    role: ROLES[user.role ?? 'user'],
  }
}

/** How many people wait for the person's answer: only a locked account has any (unlocking accepts them all). */
async function followRequestsOf(services: Services, user: User): Promise<number> {
  if (!user.locked) return 0
  let count = 0
  let cursor: string | undefined
  do {
    const page = await services.followRequests.list(user._id, { limit: 100, cursor })
    count += page.users.length
    cursor = page.nextCursor ?? undefined
  } while (cursor !== undefined)
  return count
}

/** The signed-in person's own account as the services read it now. */
export async function ownAccountOf(services: Services, publicUrl: string, userId: string) {
  const { user } = await services.users.own(userId)
  return credentialAccountOf(user, publicUrl, await followRequestsOf(services, user))
}

/** The answer of a read of something the reader may see, or undefined when it is not there for them (404). */
export async function ifThere<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return undefined
    throw error
  }
}

/** The accounts of `ids` in their order, as the reader may open them; someone not there for the reader is left out. */
export async function accountsOf(
  services: Services,
  publicUrl: string,
  ids: readonly string[],
  readerId: string | undefined,
): Promise<Account[]> {
  const people = await Promise.all(ids.map((id) => ifThere(services.users.get(id, readerId))))
  return people.flatMap((found) => (found ? [accountOf(found.user, publicUrl)] : []))
}
