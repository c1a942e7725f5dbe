import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { VISIBILITIES, type Visibility } from '../../common/audience.js'
import type { Post } from '../../server/schemas/posts.js'
import { buildApiApp, signup, type SignedUp } from './api.js'
import { tempDataDir, type TestApp, type TestContext } from './app.js'

/**
 * One small network for the audience tests (DECISIONS §12): an author with a post of each audience (and a
 * pinned one of each audience that may be pinned), and one reader of each kind the table reads as.
 */
export const READERS = ['author', 'follower', 'mentioned', 'stranger', 'blocked', 'signed out'] as const
export type ReaderKind = (typeof READERS)[number]

/** Who may read a post of each audience (mayRead), for each kind of reader. */
export const READS: Record<ReaderKind, readonly Visibility[]> = {
  author: VISIBILITIES,
  follower: ['public', 'unlisted', 'followers'],
  mentioned: VISIBILITIES,
  stranger: ['public', 'unlisted'],
  // The author blocks them: nothing of the author's is there for them.
  blocked: [],
  'signed out': ['public', 'unlisted'],
}

/** What a profile (its posts, media and pinned posts) shows each kind of reader: never a direct post. */
export const SHOWN: Record<ReaderKind, readonly Visibility[]> = {
  author: ['public', 'unlisted', 'followers'],
  follower: ['public', 'unlisted', 'followers'],
  mentioned: ['public', 'unlisted', 'followers'],
  stranger: ['public', 'unlisted'],
  blocked: [],
  // A public page's list.
  'signed out': ['public'],
}

/** Where strangers browse: Explore, tag pages, trends, search. */
export const LISTED: Record<ReaderKind, readonly Visibility[]> = {
  author: ['public'],
  follower: ['public'],
  mentioned: ['public'],
  stranger: ['public'],
  blocked: [],
  'signed out': ['public'],
}

export interface AudienceWorld {
  api: TestApp
  people: Record<Exclude<ReaderKind, 'signed out'> | 'reposter', SignedUp>
  /** One post of each audience, each mentioning the `mentioned` reader, with an image, a tag and a word. */
  plain: Record<Visibility, Post>
  /** Pinned posts of the audiences that may be pinned. */
  pinned: Partial<Record<Visibility, Post>>
  /** A public post of the author's quoting each plain post. */
  quotes: Record<Visibility, Post>
  /** The status of each reader's bookmark of each plain post. */
  bookmarked: Record<Exclude<ReaderKind, 'signed out'>, Record<Visibility, number>>
}

export const TAG = 'audtag'
export const WORD = 'audword'
const INDEX = '<!doctype html><html><head><title>Chirp</title></head><body></body></html>'

/**
 * The network, through the API: the follower and the reposter follow the author; the mentioned, the
 * stranger and the blocked reader follow the reposter, who reposts every plain post (or tries: a post that
 * may not travel is refused, or never shown); the author blocks the blocked reader, likes every plain post,
 * comments on each naming every reader, and quotes each. The mentioned reader likes each post they may
 * read, so the author is told of each; every reader bookmarks each plain post they may.
 */
export async function audienceWorld(t: TestContext): Promise<AudienceWorld> {
  const clientDir = path.join(await tempDataDir(t), 'client')
  await mkdir(clientDir, { recursive: true })
  await writeFile(path.join(clientDir, 'index.html'), INDEX)
  let tick = 0
  const api = await buildApiApp(t, {
    config: { clientDir },
    options: { now: () => new Date(Date.now() + ++tick * 1000) },
  })
  const person = (username: string) => signup(api, { username })
  const people = {
    author: await person('aud_author'),
    follower: await person('aud_follower'),
    mentioned: await person('aud_mentioned'),
    stranger: await person('aud_stranger'),
    blocked: await person('aud_blocked'),
    reposter: await person('aud_reposter'),
  }
  const post = async (who: SignedUp, url: string, payload: object = {}) => {
    const res = await api.as(who.token, { method: 'POST', url, headers: { prefer: 'return=minimal' }, payload })
    return { status: res.statusCode, body: res.json() as { post: Post } }
  }
  const must = async (who: SignedUp, url: string, payload: object = {}) => {
    const { status, body } = await post(who, url, payload)
    if (status >= 300) throw new Error(`${url}: ${status} ${JSON.stringify(body)}`)
    return body
  }
  const { author, reposter } = people
  for (const follower of [people.follower, reposter]) await must(follower, `/api/users/follow/${author.user._id}`)
  for (const reader of [people.mentioned, people.stranger, people.blocked])
    await must(reader, `/api/users/follow/${reposter.user._id}`)
  await must(author, `/api/users/block/${people.blocked.user._id}`)

  const write = async (visibility: Visibility, kind: string) => {
    const content = `@aud_mentioned ${WORD} #${TAG} a ${visibility} post, ${kind}`
    const mediaUrl = `https://images.example/${visibility}-${kind}.png`
    return (await must(author, '/api/posts', { content, visibility, mediaUrl })).post
  }
  const plain = {} as Record<Visibility, Post>
  const pinned: Partial<Record<Visibility, Post>> = {}
  for (const visibility of VISIBILITIES) plain[visibility] = await write(visibility, 'plain')
  for (const visibility of VISIBILITIES.filter((v) => v !== 'direct')) {
    const made = await write(visibility, 'pinned')
    await must(author, `/api/posts/pin/${made._id}`)
    pinned[visibility] = made
  }
  const quotes = {} as Record<Visibility, Post>
  const names = '@aud_follower @aud_mentioned @aud_stranger @aud_blocked'
  for (const visibility of VISIBILITIES) {
    const id = plain[visibility]._id
    await must(author, `/api/posts/like/${id}`)
    await must(author, `/api/comments/add/${id}`, { text: `${names} have a look` })
    // Refused for a post that may not travel once the rule of sharing holds; never shown either way.
    await post(reposter, `/api/posts/repost/${id}`)
    await post(people.mentioned, `/api/posts/like/${id}`)
    quotes[visibility] = (await must(author, '/api/posts', { content: `quoting ${visibility}`, quoteOf: id })).post
  }
  const bookmarked = {} as AudienceWorld['bookmarked']
  for (const kind of ['author', 'follower', 'mentioned', 'stranger', 'blocked'] as const) {
    bookmarked[kind] = {} as Record<Visibility, number>
    for (const visibility of VISIBILITIES)
      bookmarked[kind][visibility] = (await post(people[kind], `/api/users/bookmark/${plain[visibility]._id}`)).status
  }
  return { api, people, plain, pinned, quotes, bookmarked }
}

/** The token a reader of this kind reads with; none when signed out. */
export const tokenOf = (world: AudienceWorld, kind: ReaderKind) =>
  kind === 'signed out' ? undefined : world.people[kind].token

/**
 * Which of the world's plain and pinned posts `ids` holds, by name (`followers`, `followers pinned`), in
 * the order of VISIBILITIES: what a row of the table compares.
 */
export function namesIn(world: AudienceWorld, ids: Iterable<string>): string[] {
  const found = new Set(ids)
  return VISIBILITIES.flatMap((visibility) => [
    ...(found.has(world.plain[visibility]._id) ? [visibility] : []),
    ...(found.has(world.pinned[visibility]?._id ?? '') ? [`${visibility} pinned`] : []),
  ])
}

/** The names namesIn gives to the plain posts of `plain` and the pinned posts of `pinned`. */
export function names(plain: readonly Visibility[], pinned: readonly Visibility[] = []): string[] {
  return VISIBILITIES.flatMap((visibility) => [
    ...(plain.includes(visibility) ? [visibility] : []),
    ...(pinned.includes(visibility) && visibility !== 'direct' ? [`${visibility} pinned`] : []),
  ])
}
