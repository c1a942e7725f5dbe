import { createAccountService, type AccountDeps, type AccountService } from './account.js'
import { createAccountDeletion, type AccountDeletion } from './account-deletion.js'
import { createAccountExport, type AccountExport } from './account-export.js'
import { createAccountImport, hostOf, type AccountImport } from './account-import.js'
import type { ImportLimits } from './archive-reader.js'
import { createAuthService, tokenFor, type AuthDeps, type AuthService } from './auth.js'
import { createCommentsService, type CommentsService } from './comments.js'
import { createLinkCards, type LinkCards } from './link-cards.js'
import { createLinkFetcher, type LinkFetchOptions } from './link-fetch.js'
import { createMediaService, type MediaService } from './media.js'
import { createModerationService, type ModerationService } from './moderation.js'
import { createReportsService, type ReportsService } from './reports.js'
import { createNotificationsService, type NotificationsService } from './notifications.js'
import { createPollsService, type PollsService } from './polls.js'
import { createPostsService, type PostsService } from './posts.js'
import { createRelationsService, type RelationsService } from './relations.js'
import { createSearchService, type SearchService } from './search.js'
import { createTwoFactorService, type TwoFactorService } from './two-factor.js'
import { createUsersService, type UsersService } from './users.js'

/** Every rule of the app, one service a resource; routes reach them through this. */
export interface Services {
  auth: AuthService
  account: AccountService
  accountDeletion: AccountDeletion
  accountExport: AccountExport
  accountImport: AccountImport
  twoFactor: TwoFactorService
  users: UsersService
  posts: PostsService
  polls: PollsService
  comments: CommentsService
  media: MediaService
  notifications: NotificationsService
  search: SearchService
  reports: ReportsService
  moderation: ModerationService
  relations: RelationsService
  /** Absent when link previews are off. */
  linkCards: LinkCards | undefined
}

export interface ServicesDeps extends AuthDeps, Pick<AccountDeps, 'mailer' | 'publicUrl' | 'warn'> {
  /** Where uploaded images are kept. */
  mediaDir: string
  /** Whether per-user limits (the hourly cap on reports) hold. */
  rateLimit: boolean
  /** How link cards' pages are fetched; no cards are made without it (LINK_PREVIEWS=false). */
  linkFetch: LinkFetchOptions | undefined
  /** How long a poll's day lasts, in seconds. */
  pollDaySeconds: number
  /** How much an account's import may bring. */
  importLimits: ImportLimits
}

/** The services over one store and clock; posts learn an uploaded image's size from the media service. */
export function createServices({
  mediaDir,
  signToken,
  guestLogin,
  registration,
  passwordHashCost,
  rateLimit,
  importLimits,
  secrets,
  mailer,
  publicUrl,
  warn,
  linkFetch,
  pollDaySeconds,
  ...deps
}: ServicesDeps): Services {
  const media = createMediaService({ mediaDir })
  const linkCards =
    linkFetch &&
    createLinkCards({
      ...deps,
      fetcher: createLinkFetcher(linkFetch),
      saveImage: async (bytes) => (await media.saveFetched(bytes)).url,
      log: warn,
    })
  return {
    auth: createAuthService({ ...deps, signToken, guestLogin, registration, secrets, passwordHashCost }),
    account: createAccountService({
      ...deps,
      secrets,
      mailer,
      publicUrl,
      warn,
      passwordHashCost,
      tokenFor: (holder) => tokenFor(signToken, holder),
    }),
    accountDeletion: createAccountDeletion({ ...deps, removeMedia: (url) => media.remove(url) }),
    accountExport: createAccountExport({ ...deps, mediaDir }),
    accountImport: createAccountImport({
      ...deps,
      limits: importLimits,
      publicHost: hostOf(publicUrl),
      saveImage: (bytes) => media.saveBytes(bytes),
      removeMedia: (url) => media.remove(url),
    }),
    twoFactor: createTwoFactorService({ ...deps, secrets }),
    users: createUsersService(deps),
    posts: createPostsService({ ...deps, sizeOf: (url) => media.sizeOf(url), linkCards, pollDaySeconds }),
    polls: createPollsService(deps),
    comments: createCommentsService(deps),
    media,
    notifications: createNotificationsService(deps),
    search: createSearchService(deps),
    reports: createReportsService({ ...deps, rateLimit }),
    moderation: createModerationService(deps),
    relations: createRelationsService(deps),
    linkCards,
  }
}
