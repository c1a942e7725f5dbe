import type { ReactNode } from 'react'
import { Link, useRoute } from 'wouter'
import { paths } from '../paths.js'
import {
  BellIcon,
  BookmarkIcon,
  ListIcon,
  ExploreIcon,
  FeatherIcon,
  HomeIcon,
  MailIcon,
  ProfileIcon,
  ShieldIcon,
} from './icons.js'
import { Logo } from './logo.js'
import { OfflineBanner } from './offline-banner.js'

type LayoutProps = {
  username: string
  /** Unread notifications: the badge on Notifications. */
  unread: number
  /** Conversations with unread messages: the badge on Messages. */
  unreadMessages?: number
  /** For moderators and admins: open reports, the badge on Moderation; without it there is no Moderation item. */
  openReports?: number | undefined
  onPost: () => void
  /** The account button and its menu (profile, log out). */
  account: ReactNode
  /** Who to follow; the side panel is left out without it (a screen too narrow to show it). */
  aside?: ReactNode
  /** Above it in the side column: the search box and what is trending. */
  discover?: ReactNode
  /** At the top of the page where the side column is hidden (a phone): the search box, on the pages that offer it. */
  topBar?: ReactNode
  /** Why the app cannot reach the server now, if it cannot. */
  offline?: 'offline' | 'unreachable' | null
  children: ReactNode
}

type NavLinkProps = {
  href: string
  pattern: string
  icon: ReactNode
  label: string
  badge?: number
  /** What the badge counts, as a screen reader hears it after the name. */
  counted?: string
}

/** Past this the badge says 99+: the exact count matters less than that there is a lot. */
const BADGE_MAX = 99

function NavLink({ href, pattern, icon, label, badge = 0, counted = 'unread' }: NavLinkProps) {
  const [active] = useRoute(pattern)
  return (
    <Link
      href={href}
      className={active ? 'nav-link is-active' : 'nav-link'}
      aria-current={active ? 'page' : undefined}
      // The badge is a picture of the count; screen readers hear it after the name instead.
      aria-label={badge > 0 ? `${label}, ${badge} ${counted}` : undefined}
    >
      {/* The name first, the icon drawn before it (CSS order): the badge's number then follows the name in
          the text, a word apart, as it does in the accessible name, which axe checks the visible text against. */}
      <span className="nav-label">{label}</span>{' '}
      <span className="nav-icon">
        {icon}
        {badge > 0 && (
          <span className="nav-badge" aria-hidden="true">
            {badge > BADGE_MAX ? `${BADGE_MAX}+` : badge}
          </span>
        )}
      </span>
    </Link>
  )
}

/**
 * The signed-in frame: a side column (logo, the places to go, the Post button, and the account at its
 * foot), the page, and the side panel (search, trends, who to follow). On a phone the places become a tab bar at the bottom and the
 * account sits at the left of the top bar.
 */
export function Layout({
  username,
  unread,
  unreadMessages = 0,
  openReports,
  onPost,
  account,
  aside,
  discover,
  topBar,
  offline = null,
  children,
}: LayoutProps) {
  return (
    <div className="app-frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="app-side">
        <header className="app-header">
          <Logo />
        </header>
        <nav className="app-nav" aria-label="Main">
          <NavLink href={paths.home.href()} pattern={paths.home.path} icon={<HomeIcon />} label="Home" />
          <NavLink href={paths.explore.href()} pattern={paths.explore.path} icon={<ExploreIcon />} label="Explore" />
          <NavLink
            href={paths.notifications.href()}
            pattern={paths.notifications.path}
            icon={<BellIcon />}
            label="Notifications"
            badge={unread}
          />
          <NavLink
            href={paths.messages.href()}
            pattern={`${paths.messages.path}/*?`}
            icon={<MailIcon />}
            label="Messages"
            badge={unreadMessages}
            counted="unread conversations"
          />
          <NavLink
            href={paths.bookmark.href()}
            pattern={paths.bookmark.path}
            icon={<BookmarkIcon />}
            label="Bookmarks"
          />
          <NavLink href={paths.lists.href()} pattern={`${paths.lists.path}/*?`} icon={<ListIcon />} label="Lists" />
          <NavLink
            href={paths.profile.href(username)}
            pattern={paths.profile.href(username)}
            icon={<ProfileIcon />}
            label="Profile"
          />
          {openReports !== undefined && (
            <NavLink
              href={paths.moderation.href()}
              pattern={`${paths.moderation.path}/*?`}
              icon={<ShieldIcon />}
              label="Moderation"
              badge={openReports}
              counted="open reports"
            />
          )}
          <button type="button" className="button primary post-button" onClick={onPost}>
            <FeatherIcon />
            <span className="nav-label">Post</span>
          </button>
        </nav>
        <div className="app-account">{account}</div>
      </div>
      <main id="main" className="app-main" tabIndex={-1}>
        <OfflineBanner reason={offline} />
        {topBar && <div className="top-bar">{topBar}</div>}
        {children}
      </main>
      {aside && (
        <div className="app-aside">
          {discover}
          <aside aria-label="Who to follow">{aside}</aside>
        </div>
      )}
    </div>
  )
}
