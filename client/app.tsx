import type { ReactNode } from 'react'
import { Route, Switch, useLocation } from 'wouter'
import { ErrorBoundary } from './components/error-boundary.js'
import { AppShell } from './pages/app-shell.js'
import { BookmarkPage } from './pages/bookmark-page.js'
import { ExplorePage } from './pages/explore-page.js'
import { HomePage } from './pages/home-page.js'
import { LoginPage } from './pages/login-page.js'
import { NotFoundPage } from './pages/not-found-page.js'
import { PostDetailPage } from './pages/post-detail-page.js'
import { ProfilePage } from './pages/profile-page.js'
import { RequireAuth } from './pages/require-auth.js'
import { SignupPage } from './pages/signup-page.js'
import { ToastHost } from './pages/toast-host.js'
import { paths } from './paths.js'

/** A signed-in page inside the app's frame. */
function guarded(page: ReactNode) {
  return (
    <RequireAuth>
      <AppShell>{page}</AppShell>
    </RequireAuth>
  )
}

/** Every route of SPEC §2; the path-less last route is the 404 page. */
export function App() {
  const [location] = useLocation()
  return (
    <ErrorBoundary resetKey={location}>
      <Switch>
        <Route path={paths.login.path} component={LoginPage} />
        <Route path={paths.signup.path} component={SignupPage} />
        <Route path={paths.home.path}>{guarded(<HomePage />)}</Route>
        <Route path={paths.explore.path}>{guarded(<ExplorePage />)}</Route>
        <Route path={paths.bookmark.path}>{guarded(<BookmarkPage />)}</Route>
        <Route path={paths.profile.path}>
          {(params) => guarded(<ProfilePage username={params.username} />)}
        </Route>
        <Route path={paths.postDetail.path}>
          {(params) => guarded(<PostDetailPage postId={params.postId} />)}
        </Route>
        <Route component={NotFoundPage} />
      </Switch>
      <ToastHost />
    </ErrorBoundary>
  )
}
