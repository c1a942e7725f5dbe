import { useEffect } from 'react'
import { useDocumentTitle } from '../lib/document-title.js'
import { loadExplore } from '../state/lists.js'
import { PostList } from './post-list.js'

const EXPLORE_END = "You're all caught up"
const EXPLORE_EMPTY = 'Nobody has posted yet.'

/** Every post, newest first, a page of 10 more each time the end of the list comes into view. */
export function ExplorePage() {
  useDocumentTitle('Explore')
  useEffect(() => {
    void loadExplore()
  }, [])
  return (
    <>
      <h1 className="page-title">Explore</h1>
      <PostList
        name="explore"
        emptyText={EXPLORE_EMPTY}
        endText={EXPLORE_END}
        load={(more) => void loadExplore(more)}
      />
    </>
  )
}
