import type { ReactNode } from 'react'
import { Link, useRoute } from 'wouter'
import { paths } from '../paths.js'
import { BookmarkIcon, ExploreIcon, FeatherIcon, HomeIcon, LogoutIcon, ProfileIcon } from './icons.js'
import { Logo } from './logo.js'

type LayoutProps = {
  username: string
  onTweet: () => void
  onLogout: () => void
  aside: ReactNode
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

/** The signed-in frame: header with the logo, the navigation, the page, and the side panel. */
export function Layout({ username, onTweet, onLogout, aside, children }: LayoutProps) {
  return (
    <div className="app-frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Logo />
      </header>
      <nav className="app-nav" aria-label="Main">
        <NavLink href={paths.home.href()} pattern={paths.home.path} icon={<HomeIcon />} label="Home" />
        <NavLink href={paths.explore.href()} pattern={paths.explore.path} icon={<ExploreIcon />} label="Explore" />
        <NavLink href={paths.bookmark.href()} pattern={paths.bookmark.path} icon={<BookmarkIcon />} label="Bookmark" />
        <NavLink
          href={paths.profile.href(username)}
          pattern={paths.profile.href(username)}
          icon={<ProfileIcon />}
          label="Profile"
        />
        <button type="button" className="nav-link" onClick={onLogout}>
          <LogoutIcon />
          <span className="nav-label">Logout</span>
        </button>
        <button type="button" className="button primary tweet-button" onClick={onTweet}>
          <FeatherIcon />
          <span className="nav-label">Tweet</span>
        </button>
      </nav>
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
      <aside className="app-aside" aria-label="Who to follow">
        {aside}
      </aside>
    </div>
  )
}
