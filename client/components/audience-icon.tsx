import type { Visibility } from '../../common/audience.js'
import { GlobeIcon, LockIcon, MailIcon, UnlockIcon } from './icons.js'

/** Each audience's picture, as Mastodon draws them: a globe, an open lock, a lock, a letter. */
export function AudienceIcon({ visibility }: { visibility: Visibility }) {
  switch (visibility) {
    case 'public':
      return <GlobeIcon />
    case 'unlisted':
      return <UnlockIcon />
    case 'followers':
      return <LockIcon />
    case 'direct':
      return <MailIcon />
  }
}
