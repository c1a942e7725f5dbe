import { useEffect } from 'react'
import { useDocumentTitle } from '../lib/document-title.js'
import { loadExplore } from '../state/lists.js'
import { PostList } from './post-list.js'
import { SuggestionsPanel } from './suggestions-panel.js'
import { TrendingPanel } from './trending-panel.js'
import { useSidePanel } from './use-side-panel.js'

const EXPLORE_END = "You're all caught up"
const EXPLORE_EMPTY = 'Nobody has posted yet.'
/** Who to follow on a phone's Explore: a few, above the posts. */
const PHONE_SUGGESTIONS = 3

/**
 * Every post, newest first, a page of 10 more each time the end of the list comes into view. Where the
 * frame has no side panel (a phone), what is trending and who to follow are offered here, above the posts.
 */
export function ExplorePage() {
  useDocumentTitle('Explore')
  const sidePanel = useSidePanel()
  useEffect(() => {
    void loadExplore()
  }, [])
  return (
    <>
      <h1 className="page-title">Explore</h1>
      {!sidePanel && (
        <div className="explore-discover">
          <TrendingPanel />
          <SuggestionsPanel max={PHONE_SUGGESTIONS} />
        </div>
      )}
      <PostList
        name="explore"
        emptyText={EXPLORE_EMPTY}
        endText={EXPLORE_END}
        load={(more) => void loadExplore(more)}
      />
    </>
  )
}
