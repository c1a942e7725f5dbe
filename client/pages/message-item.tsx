import { memo } from 'react'
import { MessageBubble } from '../components/message-bubble.js'
import { useCachedPost } from './use-cached-post.js'

/** One message of the conversation on screen, read from the post cache: an edit or a deletion shows at once. */
export const MessageItem = memo(function MessageItem({ postId, me }: { postId: string; me: string }) {
  const post = useCachedPost(postId)
  if (!post) return null
  return <MessageBubble post={post} mine={post.username === me} />
})
