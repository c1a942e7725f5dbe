import type { ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { Link, useRoute } from 'wouter'
import { Spinner } from '../../components/spinner.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { paths } from '../../paths.js'
import { isStaff } from '../../state/moderation.js'
import { session } from '../../state/session.js'

const SECTIONS = [
  { href: paths.moderation.href(), pattern: paths.moderation.path, label: 'Reports' },
  { href: paths.moderationUsers.href(), pattern: `${paths.moderationUsers.path}/*?`, label: 'People' },
  { href: paths.moderationInvites.href(), pattern: paths.moderationInvites.path, label: 'Invites' },
  { href: paths.moderationLog.href(), pattern: paths.moderationLog.path, label: 'Audit log' },
  { href: paths.moderationEmojis.href(), pattern: paths.moderationEmojis.path, label: 'Emoji' },
] as const

function SectionLink({ href, pattern, label }: (typeof SECTIONS)[number]) {
  const [active] = useRoute(pattern)
  return (
    <Link href={href} className={active ? 'tab is-active' : 'tab'} aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  )
}

/** What someone without a moderator's role sees on a moderation page: a plain word, nothing of the queue. */
function NotAllowed() {
  useDocumentTitle('Not allowed')
  return (
    <>
      <h1 className="page-title">Not allowed</h1>
      <p className="empty-state">Only moderators and admins can open the moderation pages.</p>
    </>
  )
}

/**
 * A moderation page (DECISIONS §8): for moderators and admins, under the page's title and the links between
 * the moderation pages; for anyone else, a plain "not allowed".
 */
export function StaffOnly({ title, children }: { title: string; children: ReactNode }) {
  const { user } = useSnapshot(session)
  if (!user) return <Spinner label="Loading" />
  if (!isStaff(user.role)) return <NotAllowed />
  return (
    <>
      <h1 className="page-title">{title}</h1>
      <nav aria-label="Moderation" className="tabs moderation-tabs">
        {SECTIONS.map((section) => (
          <SectionLink key={section.href} {...section} />
        ))}
      </nav>
      {children}
    </>
  )
}
