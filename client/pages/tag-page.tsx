import { useEffect } from 'react'
import { EmptyState } from '../components/empty-state.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { isTag } from '../../common/text-rules.js'
import { loadTagPosts } from '../state/lists.js'
import { PostList } from './post-list.js'

const tagEmpty = (tag: string) => `No posts with #${tag} yet.`
const notATag = (tag: string) =>
  `“#${tag}” is not a hashtag: tags are 1 to 50 letters, digits or _, and not only digits.`

/** `/tag/{tag}`: the tag's posts, newest first, a page more each time the end comes into view. */
export function TagPage({ tag: raw }: { tag: string }) {
  // Tags are matched without regard to case: one page, and one list, whatever the case of the link.
  const tag = raw.normalize('NFC').toLowerCase()
  const valid = isTag(tag)
  useDocumentTitle(`#${tag}`)
  useEffect(() => {
    if (valid) void loadTagPosts(tag)
  }, [tag, valid])
  return (
    <>
      <h1 className="page-title">#{tag}</h1>
      {valid ? (
        <PostList name="tag" emptyText={tagEmpty(tag)} load={(more) => void loadTagPosts(tag, more)} />
      ) : (
        <EmptyState text={notATag(raw)} />
      )}
    </>
  )
}
