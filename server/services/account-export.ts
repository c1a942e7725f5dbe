import { Readable } from 'node:stream'
import { ZipFile } from 'yazl'
import { MSG, notFound } from '../errors.js'
import type { Page, PageRequest, PostRecord, StoreReader, UserRecord } from '../store/types.js'
import {
  ARCHIVE_FILES,
  CSV_HEADER,
  MEDIA_FOLDER,
  archivedComment,
  archivedPost,
  postReference,
} from './account-archive.js'
import type { ServiceDeps } from './deps.js'
import type { MediaService } from './media.js'
import { hiddenFrom } from './visibility.js'

/** Records read at a time: an export never holds a big account whole. */
const PAGE = 200

type Pager<T> = (page: PageRequest) => Promise<Page<T>>

/** Every item of a paged read, a page at a time. */
async function* pages<T>(read: Pager<T>): AsyncGenerator<T[]> {
  let cursor: string | undefined
  do {
    const page = await read({ limit: PAGE, cursor })
    yield page.items
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}

/** A JSON array, written as the pages come. */
async function* jsonArray<T>(items: AsyncIterable<T[]>): AsyncGenerator<string> {
  let first = true
  yield '['
  for await (const page of items) {
    for (const item of page) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(item)}`
      first = false
    }
  }
  yield '\n]\n'
}

/** Mastodon's list of accounts: the header, then a username a line. */
async function* csv(ids: AsyncIterable<string[]>, store: StoreReader): AsyncGenerator<string> {
  yield `${CSV_HEADER}\n`
  for await (const page of ids) {
    const people = await store.getUserSummaries(page)
    if (people.length > 0) yield people.map((person) => `${person.username}\n`).join('')
  }
}

/** A list of ids kept on a record, in pages like any other read. */
function chunks(ids: readonly string[]): AsyncGenerator<string[]> {
  return (async function* () {
    for (let at = 0; at < ids.length; at += PAGE) yield ids.slice(at, at + PAGE)
  })()
}

/**
 * Others' posts, as references with their authors' names, but for those whose authors the account may
 * not read (who block it, who are suspended): the archive shows no more than the account's reads do.
 */
async function* references(store: StoreReader, posts: AsyncIterable<PostRecord[]>, shut: ReadonlySet<string>) {
  for await (const pageRead of posts) {
    const page = pageRead.filter((post) => !shut.has(post.authorId))
    const authors = new Map((await store.getUserSummaries(page.map((p) => p.authorId))).map((a) => [a._id, a]))
    yield page.map((post) => postReference(post, authors.get(post.authorId)))
  }
}

function profileOf(user: UserRecord, twoFactor: boolean) {
  return {
    _id: user._id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    avatarURL: user.avatarURL,
    bio: user.bio,
    website: user.website,
    createdAt: user.createdAt,
    role: user.role ?? 'user',
    settings: { twoFactor },
  }
}

export function createAccountExport({
  store,
  now,
  media,
}: ServiceDeps & { media: Pick<MediaService, 'keyOf' | 'has' | 'open'> }) {
  /** posts.json, noting each upload a post shows so the archive can carry the file. */
  async function* postsOf(userId: string, uploads: Set<string>): AsyncGenerator<string> {
    const posts = pages<PostRecord>((page) => store.listPosts({ authorIds: [userId], sort: 'oldest', ...page }))
    yield* jsonArray(
      (async function* () {
        for await (const page of posts) {
          yield page.map((post) => {
            const upload = media.keyOf(post.mediaUrl)
            if (upload) uploads.add(upload)
            return archivedPost(post, upload && `${MEDIA_FOLDER}${upload}`)
          })
        }
      })(),
    )
  }

  /** Adds the uploads once posts.json has named them all, then closes the archive. */
  async function finish(zip: ZipFile, posts: Readable, uploads: Set<string>) {
    // A client gone before posts.json was read destroys it: the archive is then never finished.
    const read = await new Promise<boolean>((resolve, reject) => {
      posts.once('end', () => resolve(true))
      posts.once('close', () => resolve(posts.readableEnded))
      posts.once('error', reject)
    })
    if (!read) return
    for (const key of uploads) {
      // An upload gone from the storage is left out rather than failing the whole archive.
      if (!(await media.has(key))) continue
      // Opened only when the archive reaches it: a bucket's connections are not held open meanwhile.
      zip.addReadStreamLazy(`${MEDIA_FOLDER}${key}`, (done) => {
        media.open(key).then(
          (object) =>
            object ? done(null, object.body) : done(new Error(`${key} is gone from the media storage`), null as never),
          (error: unknown) => done(error, null as never),
        )
      })
    }
    zip.end()
  }

  return {
    /**
     * The account's archive as a zip, streamed: each file is written from pages read as the client takes
     * them, so neither the archive nor a big account is ever in memory whole.
     */
    async archiveOf(userId: string): Promise<{ username: string; stream: Readable }> {
      const user = await store.getUser(userId)
      if (!user) throw notFound(MSG.userNotRegistered)
      const twoFactor = (await store.getTwoFactor(userId))?.enabled === true
      const hidden = await hiddenFrom(store, userId, now())
      const zip = new ZipFile()
      const text = (name: string, content: AsyncIterable<string>) => {
        // Bytes, not objects: the archive's deflate and checksum read buffers.
        const stream = Readable.from(content, { objectMode: false })
        zip.addReadStream(stream, name)
        return stream
      }
      zip.addBuffer(Buffer.from(`${JSON.stringify(profileOf(user, twoFactor), null, 2)}\n`), ARCHIVE_FILES.account)
      const uploads = new Set<string>()
      const posts = text(ARCHIVE_FILES.posts, postsOf(userId, uploads))
      const comments = pages((page) => store.listCommentsBy(userId, page))
      text(
        ARCHIVE_FILES.comments,
        jsonArray(
          (async function* () {
            for await (const page of comments) yield page.map((c) => archivedComment(c.postId, c.comment))
          })(),
        ),
      )
      text(ARCHIVE_FILES.following, csv(chunks(user.following), store))
      text(ARCHIVE_FILES.followers, csv(chunks(user.followers), store))
      text(
        ARCHIVE_FILES.bookmarks,
        jsonArray(
          references(
            store,
            pages((page) => store.listBookmarks(userId, page)),
            hidden.shut,
          ),
        ),
      )
      const liked = pages((page) => store.listLikedPostIds(userId, page))
      text(
        ARCHIVE_FILES.likes,
        jsonArray(
          references(
            store,
            (async function* () {
              for await (const ids of liked) yield await store.getPosts(ids)
            })(),
            hidden.shut,
          ),
        ),
      )
      text(
        ARCHIVE_FILES.blocks,
        csv(
          pages((page) => store.listBlocks(userId, page)),
          store,
        ),
      )
      const at = now().toISOString()
      const mutes = pages((page) => store.listMutes(userId, at, page))
      text(
        ARCHIVE_FILES.mutes,
        csv(
          (async function* () {
            for await (const page of mutes) yield page.map((mute) => mute.userId)
          })(),
          store,
        ),
      )
      const stream = zip.outputStream as Readable
      finish(zip, posts, uploads).catch((error: unknown) => stream.destroy(error as Error))
      return { username: user.username, stream }
    },
  }
}

export type AccountExport = ReturnType<typeof createAccountExport>
