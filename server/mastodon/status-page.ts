import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Post } from '../schemas/posts.js'
import type { Services } from '../services/index.js'
import { accountOf } from './account-entity.js'
import { linkHeader } from './paging.js'
import type { Account } from './schemas.js'
import { statusOf } from './status-entity.js'
import type { Status } from './status-schemas.js'

/** The signed-in reader of a route open to everyone, if any. */
export const readerIdOf = (request: FastifyRequest): string | undefined =>
  (request.user as { _id?: string } | null | undefined)?._id

/**
 * A page of posts as statuses: the accounts of their authors, quoted authors and reposters read once each
 * (as the reader may see them), and the reader's bookmarks among them, then every status drawn from those.
 */
export async function statusesOf(
  services: Services,
  publicUrl: string,
  posts: readonly Post[],
  readerId: string | undefined,
): Promise<Status[]> {
  const keys = new Set(
    posts.flatMap((post) => [post.username, post.quote?.username ?? [], post.repostedBy?._id ?? []].flat()),
  )
  const accounts = new Map<string, Account>()
  const [users, bookmarked] = await Promise.all([
    Promise.all([...keys].map((key) => services.users.get(key, readerId))),
    readerId === undefined
      ? new Set<string>()
      : services.timelines.bookmarked(
          readerId,
          posts.map((post) => post._id),
        ),
  ])
  for (const { user } of users) {
    const account = accountOf(user, publicUrl)
    accounts.set(user.username, account)
    accounts.set(user._id, account)
  }
  return posts.map((post) => statusOf(post, { publicUrl, accounts, readerId, bookmarked }))
}

/** One status, the reader's view of the post. */
export async function statusOfPost(services: Services, publicUrl: string, post: Post, readerId: string | undefined) {
  const [status] = await statusesOf(services, publicUrl, [post], readerId)
  if (!status) throw new Error('a status of one post')
  return status
}

/** Sends a page of statuses with its Link header, newest first. */
export function sendPage(reply: FastifyReply, request: FastifyRequest, publicUrl: string, statuses: Status[]) {
  const link = linkHeader(new URL(request.url, `${publicUrl}/`), statuses)
  if (link !== undefined) void reply.header('link', link)
  return statuses
}
