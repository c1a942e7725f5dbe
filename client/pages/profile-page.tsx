import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import { ConfirmDialog } from '../components/confirm-dialog.js'
import { EditProfileModal } from '../components/edit-profile-modal.js'
import { LoadError } from '../components/load-error.js'
import { ProfileHeader } from '../components/profile-header.js'
import { ReportDialog } from '../components/report-dialog.js'
import { Spinner } from '../components/spinner.js'
import { UserListModal } from '../components/user-list-modal.js'
import { PRESET_AVATARS } from '../lib/avatars.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { fullName } from '../lib/model.js'
import { restrictConfirmation, type Restriction } from '../lib/restrict-text.js'
import { paths } from '../paths.js'
import { lists, loadProfilePosts } from '../state/lists.js'
import { restrictPerson } from '../state/relations.js'
import { sendReport } from '../state/reports.js'
import { session } from '../state/session.js'
import { editProfile, isFollowing, loadProfile, toggleFollow, users } from '../state/users.js'
import { PostList } from './post-list.js'

const PROFILE_EMPTY = 'You have not added any posts!'
const othersEmpty = (username: string) => `@${username} hasn't posted yet.`

type Dialog = 'none' | 'edit' | 'following' | 'followers' | 'report' | Restriction

/** A user's profile: who they are, whom they follow and who follows them, and their posts. */
export function ProfilePage({ username }: { username: string }) {
  const { profile, byUsername, pending } = useSnapshot(users)
  const me = useSnapshot(session).user
  const { profile: posts } = useSnapshot(lists)
  const [dialog, setDialog] = useState<Dialog>('none')
  const [location, navigate] = useLocation()

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- another profile closes the last one's dialog as its loads start
    setDialog('none')
    void loadProfile(username)
    void loadProfilePosts(username)
  }, [username])

  const user = profile.resolved ? byUsername[profile.resolved] : undefined
  const shown = profile.username === username ? user : undefined
  useDocumentTitle(shown ? `${fullName(shown)} (@${shown.username})` : profile.error ? 'Profile' : null)
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
  const restrict = async (kind: Restriction) => {
    // A block ends the follows both ways: the counts are read again.
    if (await restrictPerson(kind, user.username)) await loadProfile(username)
  }
  // A visitor without an account (PUBLIC_READ) is asked to join before following anyone.
  const follow = (id: string) => (me ? void toggleFollow(id) : navigate(paths.signup.href(location)))
  const listProps = {
    meId: me?._id ?? '',
    isFollowing,
    pending,
    onToggleFollow: follow,
    onClose: close,
  }
  return (
    <>
      <ProfileHeader
        user={user}
        postCount={posts.key === username && posts.loaded ? `${posts.items.length}${posts.done ? '' : '+'}` : '–'}
        isMe={isMe}
        following={isFollowing(user._id)}
        followBusy={pending[user._id] === true}
        onEditProfile={() => setDialog('edit')}
        onToggleFollow={() => follow(user._id)}
        onShowFollowing={() => setDialog('following')}
        onShowFollowers={() => setDialog('followers')}
        onRestrict={setDialog}
        onReport={me ? () => setDialog('report') : undefined}
      />
      <h2 className="section-title">Posts</h2>
      <PostList
        name="profile"
        emptyText={isMe ? PROFILE_EMPTY : othersEmpty(user.username)}
        load={(more) => void loadProfilePosts(username, more)}
      />
      {dialog === 'edit' && isMe && (
        <EditProfileModal user={user} avatars={PRESET_AVATARS} onSave={editProfile} onClose={close} />
      )}
      {dialog === 'report' && (
        <ReportDialog
          subject="user"
          onSend={(category, comment) => sendReport({ targetType: 'user', targetId: user._id }, category, comment)}
          onClose={close}
        />
      )}
      {(dialog === 'mute' || dialog === 'block') && (
        <ConfirmDialog
          {...restrictConfirmation(dialog, user.username)}
          onConfirm={() => {
            close()
            void restrict(dialog)
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
