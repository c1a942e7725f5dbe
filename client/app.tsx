import { lazy, Suspense, type ComponentType, type ReactElement } from 'react'
import { Route, Switch, useLocation } from 'wouter'
import { ErrorBoundary } from './components/error-boundary.js'
import { RouteAnnouncer } from './components/route-announcer.js'
import { Spinner } from './components/spinner.js'
import { RequireAuth } from './pages/require-auth.js'
import { ToastHost } from './pages/toast-host.js'
import { useNavigationTracking } from './lib/back.js'
import { publicRead } from './lib/public-read.js'
import { paths } from './paths.js'

/**
 * Every page's code is fetched when its route is first shown, so a first visit downloads the frame and
 * the one page it opens rather than every screen (the initial-JS budget of the benchmark). The home
 * page comes in one chunk with the frame (vite.config.ts); each other page is a chunk of its own.
 */
function lazyPage<P>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<ComponentType<P>> | undefined
  /** Starts fetching the page's code, once, before the page is drawn. */
  const preload = () => (loading ??= load())
  return Object.assign(
    lazy(async () => ({ default: await preload() })),
    { preload },
  )
}
const AppShell = lazyPage(() => import('./pages/app-shell.js').then((m) => m.AppShell))
const BookmarkPage = lazyPage(() => import('./pages/bookmark-page.js').then((m) => m.BookmarkPage))
const ScheduledPage = lazyPage(() => import('./pages/scheduled-page.js').then((m) => m.ScheduledPage))
const ExplorePage = lazyPage(() => import('./pages/explore-page.js').then((m) => m.ExplorePage))
// The home feed's first page is asked for as soon as the page's code is here, not once the page is drawn
// (or, when the app started on the home page, the request main.tsx made is taken over).
const HomePage = lazyPage(() =>
  import('./pages/home-page.js').then((m) => {
    m.prepareHome()
    return m.HomePage
  }),
)
const ListsPage = lazyPage(() => import('./pages/lists/lists-page.js').then((m) => m.ListsPage))
const ListPage = lazyPage(() => import('./pages/lists/list-page.js').then((m) => m.ListPage))
const LoginPage = lazyPage(() => import('./pages/login-page.js').then((m) => m.LoginPage))
const NotificationsPage = lazyPage(() => import('./pages/notifications-page.js').then((m) => m.NotificationsPage))
const NotFoundPage = lazyPage(() => import('./pages/not-found-page.js').then((m) => m.NotFoundPage))
const PostDetailPage = lazyPage(() => import('./pages/post-detail-page.js').then((m) => m.PostDetailPage))
const ProfilePage = lazyPage(() => import('./pages/profile-page.js').then((m) => m.ProfilePage))
const SearchPage = lazyPage(() => import('./pages/search-page.js').then((m) => m.SearchPage))
const TagPage = lazyPage(() => import('./pages/tag-page.js').then((m) => m.TagPage))
const SignupPage = lazyPage(() => import('./pages/signup-page.js').then((m) => m.SignupPage))
const SettingsPage = lazyPage(() => import('./pages/settings-page.js').then((m) => m.SettingsPage))
const moderationPages = () => import('./pages/moderation/index.js')
const ModerationPage = lazyPage(() => moderationPages().then((m) => m.ModerationPage))
const ModerationPeoplePage = lazyPage(() => moderationPages().then((m) => m.ModerationPeoplePage))
const ModerationPersonPage = lazyPage(() => moderationPages().then((m) => m.ModerationPersonPage))
const ModerationInvitesPage = lazyPage(() => moderationPages().then((m) => m.ModerationInvitesPage))
const ModerationLogPage = lazyPage(() => moderationPages().then((m) => m.ModerationLogPage))
const ModerationEmojisPage = lazyPage(() => moderationPages().then((m) => m.ModerationEmojisPage))
const MessagesPage = lazyPage(() => import('./pages/messages-page.js').then((m) => m.MessagesPage))
const ConversationPage = lazyPage(() => import('./pages/conversation-page.js').then((m) => m.ConversationPage))
const FollowRequestsPage = lazyPage(() => import('./pages/follow-requests-page.js').then((m) => m.FollowRequestsPage))
const ResetPasswordPage = lazyPage(() => import('./pages/reset-password-page.js').then((m) => m.ResetPasswordPage))

/**
 * A signed-in page inside the app's frame. The page's code is fetched along with the frame's: a lazy
 * page inside a lazy frame would otherwise be asked for only once the frame had arrived and been drawn.
 */
function Framed({ page }: { page: ReactElement }) {
  ;(page.type as { preload?: () => unknown }).preload?.()
  return <AppShell>{page}</AppShell>
}

function guarded(page: ReactElement) {
  return (
    <RequireAuth>
      <Framed page={page} />
    </RequireAuth>
  )
}

/** A page people share: signed in, as any other; without an account, readable when the server allows it (PUBLIC_READ). */
function shared(page: ReactElement) {
  return (
    <RequireAuth visitor={publicRead() && page}>
      <Framed page={page} />
    </RequireAuth>
  )
}

/**
 * A username from the address. The router decodes only what decodeURI does, so a handle linked as
 * `name%40host` (as other sites may write it) still has its `@` escaped: it is decoded here.
 */
function handleOf(param: string): string {
  try {
    return decodeURIComponent(param)
  } catch {
    return param
  }
}

/** Every page of the client (docs/api-contract.md §10); the path-less last route is the 404 page. */
export function App() {
  const [location] = useLocation()
  useNavigationTracking()
  return (
    <ErrorBoundary resetKey={location}>
      <Suspense fallback={<Spinner label="Loading" />}>
        <Switch>
          <Route path={paths.login.path} component={LoginPage} />
          <Route path={paths.signup.path} component={SignupPage} />
          <Route path={paths.resetPassword.path} component={ResetPasswordPage} />
          <Route path={paths.home.path}>{guarded(<HomePage />)}</Route>
          <Route path={paths.explore.path}>{guarded(<ExplorePage />)}</Route>
          <Route path={paths.notifications.path}>{guarded(<NotificationsPage />)}</Route>
          <Route path={paths.followRequests.path}>{guarded(<FollowRequestsPage />)}</Route>
          <Route path={paths.messages.path}>{guarded(<MessagesPage />)}</Route>
          <Route path={paths.conversation.path}>
            {(params) => guarded(<ConversationPage conversationId={params.conversationId} />)}
          </Route>
          <Route path={paths.search.path}>{guarded(<SearchPage />)}</Route>
          <Route path={paths.tag.path}>{(params) => shared(<TagPage tag={params.tag} />)}</Route>
          <Route path={paths.bookmark.path}>{guarded(<BookmarkPage />)}</Route>
          <Route path={paths.lists.path}>{guarded(<ListsPage />)}</Route>
          <Route path={paths.list.path}>{(params) => guarded(<ListPage id={params.listId} />)}</Route>
          <Route path={paths.scheduled.path}>{guarded(<ScheduledPage />)}</Route>
          <Route path={paths.settings.path}>{guarded(<SettingsPage />)}</Route>
          <Route path={paths.moderation.path}>{guarded(<ModerationPage />)}</Route>
          <Route path={paths.moderationUsers.path}>{guarded(<ModerationPeoplePage />)}</Route>
          <Route path={paths.moderationUser.path}>{(params) => guarded(<ModerationPersonPage id={params.id} />)}</Route>
          <Route path={paths.moderationInvites.path}>{guarded(<ModerationInvitesPage />)}</Route>
          <Route path={paths.moderationLog.path}>{guarded(<ModerationLogPage />)}</Route>
          <Route path={paths.moderationEmojis.path}>{guarded(<ModerationEmojisPage />)}</Route>
          <Route path={paths.profile.path}>
            {(params) => shared(<ProfilePage username={handleOf(params.username)} />)}
          </Route>
          <Route path={paths.postDetail.path}>{(params) => shared(<PostDetailPage postId={params.postId} />)}</Route>
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
      <ToastHost />
      <RouteAnnouncer />
    </ErrorBoundary>
  )
}
