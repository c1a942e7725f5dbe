import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import { EditProfileModal } from '../components/edit-profile-modal.js'
import { LoadError } from '../components/load-error.js'
import { ProfileHeader } from '../components/profile-header.js'
import { Spinner } from '../components/spinner.js'
import { UserListModal } from '../components/user-list-modal.js'
import { PRESET_AVATARS } from '../lib/avatars.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { fullName } from '../lib/model.js'
import { paths } from '../paths.js'
import { lists, loadProfilePosts } from '../state/lists.js'
import { session } from '../state/session.js'
import { editProfile, isFollowing, loadProfile, toggleFollow, users } from '../state/users.js'
import { PostList } from './post-list.js'

const PROFILE_EMPTY = 'You have not added any posts!'
const othersEmpty = (username: string) => `@${username} hasn't posted yet.`

type Dialog = 'none' | 'edit' | 'following' | 'followers'

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
    return (
      <LoadError
        message={profile.error ?? "This account doesn't exist."}
        onRetry={() => {
          void loadProfile(username)
          void loadProfilePosts(username)
        }}
      />
    )
  }

  const isMe = me?._id === user._id
  const close = () => setDialog('none')
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
        postCount={posts.key === username && posts.loaded ? `${posts.ids.length}${posts.done ? '' : '+'}` : '–'}
        isMe={isMe}
        following={isFollowing(user._id)}
        followBusy={pending[user._id] === true}
        onEditProfile={() => setDialog('edit')}
        onToggleFollow={() => follow(user._id)}
        onShowFollowing={() => setDialog('following')}
        onShowFollowers={() => setDialog('followers')}
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
      {dialog === 'following' && (
        <UserListModal title="Following" users={user.following} emptyText="Not following anyone!" {...listProps} />
      )}
      {dialog === 'followers' && (
        <UserListModal title="Followers" users={user.followers} emptyText="No followers" {...listProps} />
      )}
    </>
  )
}
