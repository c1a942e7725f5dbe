import type { ReactNode } from 'react'
import { Link, useRoute } from 'wouter'
import { paths } from '../paths.js'
import { BookmarkIcon, ExploreIcon, FeatherIcon, HomeIcon, ProfileIcon } from './icons.js'
import { Logo } from './logo.js'
import { OfflineBanner } from './offline-banner.js'

type LayoutProps = {
  username: string
  onPost: () => void
  /** The account button and its menu (profile, log out). */
  account: ReactNode
  aside: ReactNode
  /** Why the app cannot reach the server now, if it cannot. */
  offline?: 'offline' | 'unreachable' | null
  children: ReactNode
}

function NavLink({ href, pattern, icon, label }: { href: string; pattern: string; icon: ReactNode; label: string }) {
  const [active] = useRoute(pattern)
  return (
    <Link href={href} className={active ? 'nav-link is-active' : 'nav-link'} aria-current={active ? 'page' : undefined}>
      {icon}
      <span className="nav-label">{label}</span>
    </Link>
  )
}

/**
 * The signed-in frame: a side column (logo, the places to go, the Post button, and the account at its
 * foot), the page, and the side panel. On a phone the places become a tab bar at the bottom and the
 * account sits at the left of the top bar.
 */
export function Layout({ username, onPost, account, aside, offline = null, children }: LayoutProps) {
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
          <NavLink href={paths.bookmark.href()} pattern={paths.bookmark.path} icon={<BookmarkIcon />} label="Bookmarks" />
          <NavLink
            href={paths.profile.href(username)}
            pattern={paths.profile.href(username)}
            icon={<ProfileIcon />}
            label="Profile"
          />
          <button type="button" className="button primary post-button" onClick={onPost}>
            <FeatherIcon />
            <span className="nav-label">Post</span>
          </button>
        </nav>
        <div className="app-account">{account}</div>
      </div>
      <OfflineBanner reason={offline} />
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
      <aside className="app-aside" aria-label="Who to follow">
        {aside}
      </aside>
    </div>
  )
}
