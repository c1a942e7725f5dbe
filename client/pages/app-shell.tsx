import { Suspense, useEffect, useState, type ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import { DEFAULT_VISIBILITY } from '../../common/audience.js'
import { useLocation, useRoute } from 'wouter'
import { AccountMenu } from '../components/account-menu.js'
import { Layout } from '../components/layout.js'
import { ShortcutsDialog } from '../components/shortcuts-dialog.js'
import { Spinner } from '../components/spinner.js'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { DraftModal } from '../components/draft-modal.js'
import { PostForm } from '../components/post-form.js'
import { SearchBox } from '../components/search-box.js'
import { useTitleCount } from '../lib/document-title.js'
import { displayNameOf } from '../lib/model.js'
import { followRequestsLabel } from '../lib/notification-groups.js'
import { SHORTCUTS } from '../lib/shortcuts.js'
import { paths } from '../paths.js'
import { network, offlineReason } from '../state/network.js'
import { isStaff, loadOpenCount, moderation } from '../state/moderation.js'
import { loadUnreadCount, notifications } from '../state/notifications.js'
import { conversations, loadUnreadConversations } from '../state/conversations.js'
import { follows, loadFollowRequests } from '../state/follows.js'
import { createPost, uploadMedia, type PostDraft } from '../state/posts.js'
import { session } from '../state/session.js'
import { logout } from '../state/sign-out.js'
import { showToast } from '../state/toasts.js'
import { emojis, loadEmojis } from '../state/emojis.js'
import { LeaveGuard } from './leave-guard.js'
import { TrendingPanel } from './trending-panel.js'
import { useSidePanel } from './use-side-panel.js'
import { useKeyboardShortcuts } from './use-keyboard-shortcuts.js'
import { useSearchBox } from './use-search-box.js'
import { SuggestionsPanel } from './suggestions-panel.js'
import { suggestForComposer } from './suggest.js'

/** The signed-in frame wired to the state: navigation, the Post modal and Who to follow. */
export function AppShell({ children }: { children: ReactNode }) {
  const { username, user } = useSnapshot(session)
  const { unread } = useSnapshot(notifications)
  const unreadMessages = useSnapshot(conversations).unread
  const { requests } = useSnapshot(follows)
  const { open: openReports } = useSnapshot(moderation)
  const staff = isStaff(user?.role)
  const offline = offlineReason(useSnapshot(network))
  // On a narrower screen the panel is hidden: drawing it (and fetching what it shows) would only delay the page.
  const sidePanel = useSidePanel()
  const [composing, setComposing] = useState(false)
  const [composerDirty, setComposerDirty] = useState(false)
  const [loggingOut, setLoggingOut] = useState(false)
  const [showingShortcuts, setShowingShortcuts] = useState(false)
  useKeyboardShortcuts({
    username: username ?? '',
    onCompose: () => setComposing(true),
    onHelp: () => setShowingShortcuts(true),
  })
  const [, navigate] = useLocation()
  const searchBox = useSearchBox()
  const [onExplore] = useRoute(paths.explore.path)
  const [onSearch] = useRoute(paths.search.path)
  useTitleCount(unread)
  useEffect(() => {
    // Not while logging out: the call would go without a token and fail.
    if (!username) return
    void loadUnreadCount()
    void loadUnreadConversations()
  }, [username])
  // A locked account hears of its follow requests in the account menu; an open one has none.
  const locked = user?.locked === true
  useEffect(() => {
    if (locked) void loadFollowRequests()
  }, [locked])
  useEffect(() => {
    if (staff) void loadOpenCount()
  }, [staff])
  const { list: customEmojis } = useSnapshot(emojis)
  useEffect(() => {
    if (composing) void loadEmojis()
  }, [composing])

  const closeComposer = () => {
    setComposing(false)
    setComposerDirty(false)
  }
  const submit = async (draft: PostDraft) => {
    const ok = await createPost(draft)
    if (ok) {
      closeComposer()
      showToast(draft.visibility === 'direct' ? 'Your message was sent' : 'Your post was sent', 'success')
    }
    return ok
  }

  return (
    <Layout
      username={username ?? ''}
      unread={unread}
      unreadMessages={unreadMessages}
      openReports={staff ? openReports : undefined}
      offline={offline}
      onPost={() => setComposing(true)}
      account={
        user && (
          <AccountMenu
            username={user.username}
            name={displayNameOf(user)}
            avatarURL={user.avatarURL}
            onLogout={() => setLoggingOut(true)}
            onShowShortcuts={() => setShowingShortcuts(true)}
            followRequests={
              requests.items.length > 0 ? followRequestsLabel(requests.items.length, requests.done) : undefined
            }
          />
        )
      }
      // One box on Explore and Search, kept across the two, so typing in it on a phone goes on while the results come.
      topBar={(onExplore || onSearch) && <SearchBox {...searchBox} />}
      discover={
        sidePanel && (
          <>
            <SearchBox {...searchBox} />
            <TrendingPanel />
          </>
        )
      }
      aside={sidePanel && <SuggestionsPanel />}
    >
      {/* A page still loading its code leaves the frame on screen, drawn once, rather than blanking it. */}
      <Suspense fallback={<Spinner label="Loading" />}>{children}</Suspense>
      {composing && (
        <DraftModal title="Create Post" dirty={composerDirty} onClose={closeComposer}>
          <PostForm
            allowPoll
            allowSchedule
            author={user ? { avatarURL: user.avatarURL, name: displayNameOf(user) } : undefined}
            audience={user?.defaultVisibility ?? DEFAULT_VISIBILITY}
            remindAlt={user?.altTextReminder !== false}
            onSubmit={submit}
            onUpload={uploadMedia}
            onFileError={(message) => showToast(message, 'error')}
            suggest={suggestForComposer}
            customEmojis={customEmojis}
            onChange={(draft) => setComposerDirty(draft.content.trim() !== '' || draft.media.length > 0)}
          />
        </DraftModal>
      )}
      {loggingOut && (
        <ConfirmDialog
          title="Log out of Chirp?"
          text="You can log back in at any time."
          confirmLabel="Log out"
          tone="plain"
          onCancel={() => setLoggingOut(false)}
          onConfirm={() => {
            logout()
            navigate(paths.login.href(), { replace: true })
          }}
        />
      )}
      {showingShortcuts && <ShortcutsDialog shortcuts={SHORTCUTS} onClose={() => setShowingShortcuts(false)} />}
      <LeaveGuard />
    </Layout>
  )
}
