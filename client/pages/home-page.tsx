import { useEffect, useRef } from 'react'
import { useSnapshot } from 'valtio'
import { DEFAULT_VISIBILITY } from '../../common/audience.js'
import { Link } from 'wouter'
import { PostForm } from '../components/post-form.js'
import { SortDropdown } from '../components/sort-dropdown.js'
import { WhoToFollow } from '../components/who-to-follow.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { displayNameOf } from '../lib/model.js'
import { readDraft, writeDraft } from '../lib/storage.js'
import { paths } from '../paths.js'
import { SORTS } from '../state/early-home.js'
import { lists, loadHome, prefetchHome, setSort } from '../state/lists.js'
import { createPost, uploadMedia } from '../state/posts.js'
import { session } from '../state/session.js'
import { showToast } from '../state/toasts.js'
import { emojis, loadEmojis } from '../state/emojis.js'
import { users } from '../state/users.js'
import { PostList } from './post-list.js'
import { suggestForComposer } from './suggest.js'
import { useSidePanel } from './use-side-panel.js'
import { useSuggestions } from './use-suggestions.js'

const HOME_EMPTY = 'No posts to show yet. Follow people to see their posts here.'

/** What the home page starts as soon as its code has arrived, before it is drawn: the request for the feed's first page. */
export function prepareHome(): void {
  prefetchHome()
}

/** The home timeline: my posts and those of people I follow, in the chosen order. */
export function HomePage() {
  const { sort } = useSnapshot(lists)
  const { user } = useSnapshot(session)
  const { list: customEmojis } = useSnapshot(emojis)
  useEffect(() => void loadEmojis(), [])
  useDocumentTitle('Home')

  useEffect(() => {
    void loadHome()
  }, [])

  // A follow or an unfollow the server made (here in Who to follow, or in another tab) changes whose posts
  // belong in the feed: its answer, or its live event, raises the version.
  const { followsVersion } = useSnapshot(users)
  const knownVersion = useRef(followsVersion)
  useEffect(() => {
    if (knownVersion.current === followsVersion) return
    knownVersion.current = followsVersion
    void loadHome()
  }, [followsVersion])

  return (
    <>
      <h1 className="page-title">Home</h1>
      <div className="card composer">
        <PostForm
          resetAfterSubmit
          allowPoll
          allowSchedule
          initial={readDraft()}
          onChange={writeDraft}
          author={user ? { avatarURL: user.avatarURL, name: displayNameOf(user) } : undefined}
          audience={user?.defaultVisibility ?? DEFAULT_VISIBILITY}
          remindAlt={user?.altTextReminder !== false}
          onSubmit={createPost}
          onUpload={uploadMedia}
          onFileError={(message) => showToast(message, 'error')}
          suggest={suggestForComposer}
          customEmojis={customEmojis}
        />
        <p className="composer-more">
          <Link href={paths.scheduled.href()}>Scheduled posts</Link>
        </p>
      </div>
      <div className="list-head">
        <h2>{sort} Posts</h2>
        <SortDropdown options={SORTS} value={sort} onChange={(value) => void setSort(value)} />
      </div>
      <PostList name="home" emptyText={HOME_EMPTY} emptyExtra={<StartHere />} load={(more) => void loadHome(more)} />
    </>
  )
}

/**
 * A new account's empty feed is where people to follow are offered, in the page itself, so a phone
 * (which has no side panel) shows them too, with the way to everyone's posts beside them.
 */
function StartHere() {
  // Where the side panel shows, it keeps the suggestions loaded; without it, this list does.
  const { shown, loaded, pending, requested, follow } = useSuggestions({ load: !useSidePanel() })
  return (
    <div className="start-here">
      {shown.length > 0 && (
        <WhoToFollow users={shown} loaded={loaded} pending={pending} requested={requested} onFollow={follow} />
      )}
      <Link href={paths.explore.href()} className="button primary">
        Explore posts
      </Link>
    </div>
  )
}
