import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { Link, useLocation } from 'wouter'
import { LoadError } from '../components/load-error.js'
import { BackTitle } from '../components/back-title.js'
import { PostSkeleton } from '../components/post-skeleton.js'
import { goBack } from '../lib/back.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { displayNameOf } from '../lib/model.js'
import { paths } from '../paths.js'
import { lists, loadPost } from '../state/lists.js'
import { postCache } from '../state/post-cache.js'
import { PostItem } from './post-item.js'

/** One post, found by its id, with its comments open. */
export function PostDetailPage({ postId }: { postId: string }) {
  const { detail } = useSnapshot(lists)
  const { byId } = useSnapshot(postCache)
  const [, navigate] = useLocation()

  useEffect(() => {
    void loadPost(postId)
  }, [postId])

  // Until the load for this route has started, an older detail must not show as 'not found'.
  const pending = detail.loading || detail.id !== postId
  const post = pending ? undefined : byId[detail.id]
  useDocumentTitle(post ? postTitle(post) : pending ? null : 'Post')
  return (
    <>
      <BackTitle title="Post" onBack={() => goBack(navigate, paths.home.href())} />
      {pending && <PostSkeleton count={1} label="Loading post" />}
      {!pending && !post && (
        <div className="stack center">
          <LoadError
            message={detail.error ?? "This post doesn't exist. It may have been deleted."}
            onRetry={detail.retryable ? () => void loadPost(postId) : undefined}
          />
          <Link href={paths.home.href()} className="button outline small">
            Back to Home
          </Link>
        </div>
      )}
      {post && <PostItem key={post._id} postId={post._id} detail onDeleted={() => navigate(paths.home.href())} />}
    </>
  )
}

/** As Twitter words it: 'Maya Lin on Chirp: "the start of the post"'. */
function postTitle(post: { firstName: string; lastName: string; content: string }): string {
  const text = post.content.replace(/\s+/g, ' ').trim()
  const start = text.length > 60 ? `${text.slice(0, 59)}…` : text
  return start ? `${displayNameOf(post)} on Chirp: "${start}"` : `Post by ${displayNameOf(post)}`
}
