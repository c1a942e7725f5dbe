import { useEffect } from 'react'
import { useDocumentTitle } from '../lib/document-title.js'
import { loadBookmarks } from '../state/lists.js'
import { PostList } from './post-list.js'

const BOOKMARK_EMPTY = 'You have not added any Bookmarks!'

export function BookmarkPage() {
  useDocumentTitle('Bookmarks')
  useEffect(() => {
    void loadBookmarks()
  }, [])
  return (
    <>
      <h1 className="page-title">Bookmarks</h1>
      <PostList name="bookmarks" emptyText={BOOKMARK_EMPTY} load={(more) => void loadBookmarks(more)} />
    </>
  )
}
