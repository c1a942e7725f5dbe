import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Post } from '../schemas/posts.js'
import type { Services } from '../services/index.js'
import { accountOf } from './account-entity.js'
import { linkHeader } from './paging.js'
import type { Account } from './schemas.js'
import { AppError } from '../errors.js'
import { attachmentIdOf } from '../services/media-attachments.js'
import { recordNotFound } from './errors.js'
import { statusOf, type StatusContext } from './status-entity.js'
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
  const keys = posts.flatMap((post) => [post.username, post.quote?.username ?? [], post.repostedBy?._id ?? []].flat())
  const [context, bookmarked] = await Promise.all([
    statusContextOf(services, publicUrl, keys, readerId),
    readerId === undefined
      ? new Set<string>()
      : services.timelines.bookmarked(
          readerId,
          posts.map((post) => post._id),
        ),
  ])
  return posts.map((post) => statusOf(post, { ...context, bookmarked }))
}

/**
 * What statuses are drawn with: the accounts of these people (by username or id, each read once, as the
 * reader may see them) and the ids of uploads; no bookmarks, which only posts' statuses read.
 */
export async function statusContextOf(
  services: Services,
  publicUrl: string,
  keys: readonly string[],
  readerId: string | undefined,
): Promise<StatusContext> {
  const accounts = new Map<string, Account>()
  const users = await Promise.all([...new Set(keys)].map((key) => services.users.get(key, readerId)))
  for (const { user } of users) {
    const account = accountOf(user, publicUrl)
    accounts.set(user.username, account)
    accounts.set(user._id, account)
  }
  const mediaIdOf = (url: string) => {
    const key = services.media.keyOf(url)
    return key === undefined ? undefined : attachmentIdOf(key)
  }
  return { publicUrl, accounts, readerId, bookmarked: new Set<string>(), mediaIdOf }
}

/** A 404 of the services, as Mastodon words it for an id that names nothing the reader may see. */
export const recordOr404 = <T>(read: Promise<T>): Promise<T> =>
  read.catch((error: unknown) => {
    throw error instanceof AppError && error.statusCode === 404 ? recordNotFound() : error
  })

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

/** A timeline's page, its entries' posts as statuses for the reader, with the Link header to the next. */
export async function sendTimeline(
  reply: FastifyReply,
  request: FastifyRequest,
  services: Services,
  publicUrl: string,
  entries: readonly { post: Post }[],
  readerId: string | undefined,
) {
  const posts = entries.map((entry) => entry.post)
  return sendPage(reply, request, publicUrl, await statusesOf(services, publicUrl, posts, readerId))
}
