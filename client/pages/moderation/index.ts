/** The moderation pages, one chunk of code that only moderators and admins load. */
export { ModerationEmojisPage } from './emojis-page.js'
export { ModerationInvitesPage } from './invites-page.js'
export { ModerationLogPage } from './log-page.js'
export { ModerationPeoplePage } from './people-page.js'
export { ModerationPersonPage } from './person-page.js'
export { ModerationPage } from './queue-page.js'
