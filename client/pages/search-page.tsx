import { useEffect, useId } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation, useSearch } from 'wouter'
import { EmptyState } from '../components/empty-state.js'
import { LoadError } from '../components/load-error.js'
import { PersonRow } from '../components/person-row.js'
import { PostSkeleton } from '../components/post-skeleton.js'
import { Sentinel } from '../components/sentinel.js'
import { Spinner } from '../components/spinner.js'
import { Tabs } from '../components/tabs.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { paths, type SearchTab } from '../paths.js'
import { loadSearchPosts } from '../state/lists.js'
import { loadPeople, search, setPeopleFirst } from '../state/search.js'
import { session } from '../state/session.js'
import { toggleFollow } from '../state/follows.js'
import { users } from '../state/users.js'
import { PostList } from './post-list.js'
import { readSearch } from './use-search-box.js'
import { TrendingPanel } from './trending-panel.js'

const TABS = [
  { value: 'posts', label: 'Posts' },
  { value: 'users', label: 'People' },
] as const satisfies readonly { value: SearchTab; label: string }[]

const SEARCH_HINT = 'Search for people, posts and #tags.'
const noPosts = (q: string) => `No posts match “${q}”.`
const noPeople = (q: string) => `Nobody matches “${q}”.`

/**
 * `/search?q=&type=`: what the address says is what is shown, so a search can be shared, reloaded and
 * gone back to. The frame's search boxes write the address; the tabs replace it.
 */
export function SearchPage() {
  const { q, tab } = readSearch(useSearch())
  const [, navigate] = useLocation()
  const panel = useId()
  useDocumentTitle(q ? `${q} - Search` : 'Search')

  const snap = useSnapshot(search)
  // A search typed in the box, until a tab is chosen, looks for people first and shows them if there are any.
  const peopleFirst = snap.peopleFirst && tab === 'posts' && !q.startsWith('#')
  const { people } = snap
  useEffect(() => {
    if (!q) return
    if (tab === 'users') {
      if (search.people.key !== q || !search.people.loaded) void loadPeople(q)
      return
    }
    if (!peopleFirst) {
      void loadSearchPosts(q)
      return
    }
    let current = true
    void loadPeople(q).then(() => {
      if (!current || search.people.key !== q) return
      if (search.people.items.length > 0) navigate(paths.search.href({ q, type: 'users' }), { replace: true })
      else void loadSearchPosts(q)
    })
    return () => {
      current = false
    }
  }, [q, tab, peopleFirst, navigate])
  const deciding = peopleFirst && (people.key !== q || !people.loaded || people.items.length > 0)

  let results
  if (!q) {
    results = (
      <>
        <EmptyState text={SEARCH_HINT} />
        {/* A phone has no side column: what is trending is offered here instead. */}
        <div className="search-trending">
          <TrendingPanel />
        </div>
      </>
    )
  } else if (deciding) {
    results = <PostSkeleton label="Searching" />
  } else if (tab === 'posts') {
    results = <PostList name="search" emptyText={noPosts(q)} load={(more) => void loadSearchPosts(q, more)} />
  } else {
    results = <PeopleResults q={q} />
  }

  return (
    <>
      <h1 className="page-title">Search</h1>
      <Tabs
        label="Search results"
        tabs={TABS}
        value={tab}
        panel={panel}
        onChange={(type) => {
          setPeopleFirst(false)
          navigate(paths.search.href({ q, type }), { replace: true })
        }}
      />
      <div role="tabpanel" id={panel} aria-label={TABS.find((t) => t.value === tab)?.label}>
        {results}
      </div>
    </>
  )
}

/** The people found, each with Follow, more as the end comes into view. */
function PeopleResults({ q }: { q: string }) {
  const people = useSnapshot(search).people
  const { pending, requested } = useSnapshot(users)
  const me = useSnapshot(session).user
  const followingIds = new Set(me?.following.map((u) => u._id))
  const list = people.key === q ? people : null
  if (!list || list.items.length === 0) {
    if (!list || list.loading || !list.loaded) return <PostSkeleton label="Searching" />
    if (list.error) {
      return <LoadError message={list.error} onRetry={list.retryable ? () => void loadPeople(q) : undefined} />
    }
    return <EmptyState text={noPeople(q)} />
  }
  return (
    <>
      <ul className="user-list people-results" aria-label="People found">
        {list.items.map((user) => (
          <PersonRow
            key={user._id}
            user={user}
            isMe={user._id === me?._id}
            following={followingIds.has(user._id)}
            requested={requested[user._id] === true}
            busy={pending[user._id] === true}
            onToggleFollow={() => void toggleFollow(user._id, user)}
          />
        ))}
      </ul>
      {list.loading && <Spinner />}
      {list.error && (
        <LoadError message={list.error} onRetry={list.retryable ? () => void loadPeople(q, true) : undefined} />
      )}
      {!list.done && <Sentinel active={!list.loading && !list.error} onVisible={() => void loadPeople(q, true)} />}
    </>
  )
}
