import { isOpen } from '../../common/audience.js'
import type { EventAudience } from '../schemas/events.js'
import { visibilityOf, type Audience } from './audience.js'

/**
 * What an event about the post carries, so that only the post's readers get it (DECISIONS §12): its
 * audience, or undefined when anyone may read it, which keeps events about open posts as they were.
 */
export function audienceOf(post: Audience): EventAudience | undefined {
  const visibility = visibilityOf(post)
  if (isOpen(visibility)) return undefined
  const addressed = post.addressed ?? []
  return { authorId: post.authorId, visibility, ...(addressed.length > 0 ? { addressed } : {}) }
}
