import { useEffect, useId, useState } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import { RestrictDialog } from '../components/restrict-dialog.js'
import { EditProfileModal } from '../components/edit-profile-modal.js'
import { LoadError } from '../components/load-error.js'
import { ProfileHeader } from '../components/profile-header.js'
import { ReportDialog } from '../components/report-dialog.js'
import { Spinner } from '../components/spinner.js'
import { Tabs } from '../components/tabs.js'
import { UserListModal } from '../components/user-list-modal.js'
import { PRESET_AVATARS } from '../lib/avatars.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { displayNameOf } from '../lib/model.js'
import type { Restriction } from '../lib/restrict-text.js'
import { paths } from '../paths.js'
import { loadProfileLikes, loadProfileMedia, loadProfilePosts } from '../state/lists.js'
import { uploadMedia } from '../state/posts.js'
import { showToast } from '../state/toasts.js'
import { restrictPerson } from '../state/relations.js'
import { sendReport } from '../state/reports.js'
import { session } from '../state/session.js'
import { toggleFollow } from '../state/follows.js'
import { editProfile, isFollowing, loadProfile, users } from '../state/users.js'
import { PostList } from './post-list.js'

const PROFILE_EMPTY = 'You have not added any posts!'
const othersEmpty = (username: string) => `@${username} hasn't posted yet.`
const MEDIA_EMPTY = 'No photos or videos yet.'
const likesEmpty = (mine: boolean, username: string) =>
  mine ? "You haven't liked any posts yet." : `@${username} hasn't liked any posts yet.`

type Dialog = 'none' | 'edit' | 'following' | 'followers' | 'report' | Restriction

type Tab = 'posts' | 'media' | 'likes'
const TABS = [
  { value: 'posts', label: 'Posts' },
  { value: 'media', label: 'Media' },
  { value: 'likes', label: 'Likes' },
] as const satisfies readonly { value: Tab; label: string }[]
/** What a person of another server likes is known only to their server. */
const REMOTE_TABS = TABS.filter((t) => t.value !== 'likes')
const TAB_LISTS = { posts: 'profile', media: 'profileMedia', likes: 'profileLikes' } as const
const TAB_LOADS = { posts: loadProfilePosts, media: loadProfileMedia, likes: loadProfileLikes }

/** A user's profile: who they are, whom they follow and who follows them, and their posts. */
export function ProfilePage({ username }: { username: string }) {
  const { profile, byUsername, pending, requested } = useSnapshot(users)
  const me = useSnapshot(session).user
  const [dialog, setDialog] = useState<Dialog>('none')
  const [tab, setTab] = useState<Tab>('posts')
  const [location, navigate] = useLocation()
  const panelId = useId()

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- another profile closes the last one's dialog and tab as its loads start
    setDialog('none')
    setTab('posts')
    void loadProfile(username)
    void loadProfilePosts(username)
  }, [username])

  const user = profile.resolved ? byUsername[profile.resolved] : undefined
  const shown = profile.username === username ? user : undefined
  useDocumentTitle(shown ? `${displayNameOf(shown)} (@${shown.username})` : profile.error ? 'Profile' : null)
  if (profile.username !== username || (profile.loading && !user)) return <Spinner label="Loading profile" />
  if (!user) {
    const retry = () => {
      void loadProfile(username)
      void loadProfilePosts(username)
    }
    return (
      <>
        <h1 className="page-title">@{username}</h1>
        <LoadError
          message={profile.error ?? "This account doesn't exist."}
          onRetry={profile.retryable ? retry : undefined}
        />
      </>
    )
  }

  const isMe = me?._id === user._id
  const close = () => setDialog('none')
  const restrict = async (kind: Restriction, duration: number | undefined) => {
    // A block ends the follows both ways: the counts are read again.
    if (await restrictPerson(kind, user.username, duration)) await loadProfile(username)
  }
  // A visitor without an account (PUBLIC_READ) is asked to join before following anyone.
  const follow = (id: string) => (me ? void toggleFollow(id) : navigate(paths.signup.href(location)))
  const listProps = {
    meId: me?._id ?? '',
    isFollowing,
    isRequested: (id: string) => requested[id] === true,
    pending,
    onToggleFollow: follow,
    onClose: close,
  }
  return (
    <>
      <ProfileHeader
        user={user}
        postCount={user.postCount}
        isMe={isMe}
        following={isFollowing(user._id)}
        requested={requested[user._id] === true}
        followBusy={pending[user._id] === true}
        onEditProfile={() => setDialog('edit')}
        onToggleFollow={() => follow(user._id)}
        onShowFollowing={() => setDialog('following')}
        onShowFollowers={() => setDialog('followers')}
        onRestrict={setDialog}
        onReport={me ? () => setDialog('report') : undefined}
      />
      <Tabs
        label="Posts of the profile"
        tabs={user.remote ? REMOTE_TABS : TABS}
        value={tab}
        panel={panelId}
        onChange={(next) => {
          setTab(next)
          void TAB_LOADS[next](username)
        }}
      />
      <div id={panelId} role="tabpanel" aria-label={TABS.find((t) => t.value === tab)?.label}>
        <PostList
          key={tab}
          name={TAB_LISTS[tab]}
          emptyText={
            tab === 'media'
              ? MEDIA_EMPTY
              : tab === 'likes'
                ? likesEmpty(isMe, user.username)
                : isMe
                  ? PROFILE_EMPTY
                  : othersEmpty(user.username)
          }
          load={(more) => void TAB_LOADS[tab](username, more)}
        />
      </div>
      {dialog === 'edit' && isMe && (
        <EditProfileModal
          user={user}
          avatars={PRESET_AVATARS}
          onSave={editProfile}
          onUpload={uploadMedia}
          onFileError={(message) => showToast(message, 'error')}
          onClose={close}
        />
      )}
      {dialog === 'report' && (
        <ReportDialog
          subject="user"
          onSend={(category, comment) => sendReport({ targetType: 'user', targetId: user._id }, category, comment)}
          onClose={close}
        />
      )}
      {(dialog === 'mute' || dialog === 'block') && (
        <RestrictDialog
          kind={dialog}
          username={user.username}
          onConfirm={(duration) => {
            close()
            void restrict(dialog, duration)
          }}
          onCancel={close}
        />
      )}
      {dialog === 'following' && (
        <UserListModal title="Following" users={user.following} emptyText="Not following anyone!" {...listProps} />
      )}
      {dialog === 'followers' && (
        <UserListModal title="Followers" users={user.followers} emptyText="No followers" {...listProps} />
      )}
    </>
  )
}
