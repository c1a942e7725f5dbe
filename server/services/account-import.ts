import { randomUUID } from 'node:crypto'
import { DEFAULT_VISIBILITY, isOpen, type Visibility } from '../../common/audience.js'
import { createReadStream } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import path from 'node:path'
import { MSG, badRequest, forbidden, notFound, payloadTooLarge, unsupportedMediaType } from '../errors.js'
import type { MediaReply } from '../schemas/media.js'
import type { PostRecord, StoreTx, UserRecord, UserSummaryRecord } from '../store/types.js'
import { isGuest } from '../usernames.js'
import { ARCHIVE_FILES, MEDIA_FOLDER } from './account-archive.js'
import { linesOf, listAddresses } from './account-lists.js'
import { readArchive, type ArchiveContents, type ImportLimits } from './archive-reader.js'
import type { ServiceDeps } from './deps.js'
import { isValidMediaUrl } from './urls.js'
import { blockIn, muteIn } from './relations.js'
import { summaryRecordOf } from './views.js'
import { mentionedIn } from './notifier.js'
import { directAudience, fileDirect, tellConversation } from './conversations.js'
import { blockedEitherWay } from './visibility.js'
import { keptDate, postTextsProblem, visibilityProblem } from './content-rules.js'
import { hasVisibleText } from '../schemas/text.js'

const KINDS = ['posts', 'following', 'blocks', 'mutes', 'bookmarks'] as const
type Kind = (typeof KINDS)[number]
export type ImportCounts = Record<Kind, number>

/** Mastodon names its exports so; an import tells a list by its file name. */
const LIST_OF_CSV_NAME: Readonly<Record<string, 'following' | 'blocks' | 'mutes'>> = {
  'following_accounts.csv': 'following',
  'blocked_accounts.csv': 'blocks',
  'muted_accounts.csv': 'mutes',
}
const ARCHIVE_LISTS: Readonly<Record<string, 'following' | 'blocks' | 'mutes'>> = {
  [ARCHIVE_FILES.following]: 'following',
  [ARCHIVE_FILES.blocks]: 'blocks',
  [ARCHIVE_FILES.mutes]: 'mutes',
}
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04])

/** A post of the archive, checked. */
interface IncomingPost {
  content: string
  mediaUrl: string
  mediaAlt?: string
  media?: string
  visibility: Visibility
  createdAt: string
}

/** What an import found, checked, before anything is written. */
interface Plan {
  posts: IncomingPost[]
  following: string[]
  blocks: string[]
  mutes: string[]
  bookmarks: string[]
  /** Addresses of other servers and lines that name nobody, skipped before the store is asked. */
  skipped: ImportCounts
}

const zero = (): ImportCounts => ({ posts: 0, following: 0, blocks: 0, mutes: 0, bookmarks: 0 })
const emptyPlan = (): Plan => ({ posts: [], following: [], blocks: [], mutes: [], bookmarks: [], skipped: zero() })

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function parseJson(text: string | undefined): unknown[] {
  if (text === undefined) return []
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw badRequest(MSG.importInvalidFile)
  }
  if (!Array.isArray(value)) throw badRequest(MSG.importInvalidFile)
  return value
}

/**
 * posts.json: each entry an object with the fields a post has, of their types, and its texts within the
 * rules every post obeys (content-rules.ts): an entry that breaks one refuses the import, saying which.
 * Its date is kept between 1970 and `now`.
 */
function postsOf(text: string | undefined, now: Date): IncomingPost[] {
  return parseJson(text).map((item, i) => {
    if (!isObject(item)) throw badRequest(MSG.importInvalidFile)
    const { content, mediaUrl = '', mediaAlt, media, visibility = DEFAULT_VISIBILITY, createdAt } = item
    const typed =
      typeof content === 'string' &&
      typeof mediaUrl === 'string' &&
      (mediaAlt === undefined || typeof mediaAlt === 'string') &&
      (media === undefined || typeof media === 'string') &&
      typeof createdAt === 'string'
    const date = typed ? keptDate(createdAt, now) : undefined
    if (!typed || date === undefined) throw badRequest(MSG.importInvalidFile)
    const problem = postTextsProblem({ content, mediaAlt }) ?? visibilityProblem(visibility)
    if (problem) throw badRequest(`${ARCHIVE_FILES.posts}: post ${i + 1}: ${problem}`)
    return {
      content,
      mediaUrl,
      ...(mediaAlt !== undefined ? { mediaAlt } : {}),
      ...(media !== undefined ? { media } : {}),
      visibility: visibility as Visibility,
      createdAt: date,
    }
  })
}

/**
 * An imported post keeps its audience. A `followers` one reaches, as one written here does, the people its
 * text mentions who are here now besides the author's followers (notifying nobody, as every import); for
 * an open one whom it addressed changes nothing, so no name is looked up. A direct one is filed apart
 * (importDirect).
 */
async function audienceOfImported(tx: StoreTx, userId: string, { visibility, content }: IncomingPost) {
  if (isOpen(visibility)) return { visibility }
  const addressed = [...(await mentionedIn(tx, content)).keys()].filter((id) => id !== userId)
  return { visibility, ...(addressed.length > 0 ? { addressed } : {}) }
}

/**
 * An imported direct post goes where a new one would (conversations.ts): to the people its text mentions
 * who are here now and not across a block, in the conversation of the author and them, opened when there
 * is none yet, and unread for each of them; nobody is notified, as by every import. `told` gathers each
 * conversation's people, whose streams hear of it once the posts are in.
 */
async function importDirect(tx: StoreTx, post: PostRecord, at: string, told: Map<string, Set<string>>) {
  const audience = await directAudience(tx, post.authorId, post.content, undefined, at)
  await fileDirect(tx, post, audience, at)
  const people = told.get(audience.conversationId) ?? new Set([post.authorId])
  for (const id of audience.recipients) people.add(id)
  told.set(audience.conversationId, people)
}

function bookmarksOf(text: string | undefined): string[] {
  return parseJson(text).map((item) => {
    if (!isObject(item) || typeof item.postId !== 'string') throw badRequest(MSG.importInvalidFile)
    return item.postId
  })
}

export function createAccountImport({
  store,
  now,
  limits,
  publicHost,
  saveImage,
  pixelsOf,
  removeMedia,
}: ServiceDeps & {
  limits: ImportLimits
  /** The host of PUBLIC_URL: `name@<it>` in a list is a local user; any other host is skipped. */
  publicHost: string
  saveImage: (bytes: Buffer) => Promise<MediaReply | undefined>
  pixelsOf: (bytes: Buffer) => Promise<number | undefined>
  removeMedia: (url: string) => Promise<void>
}) {
  /** A list's local usernames into the plan, reading no further than the entries the plan has room for. */
  async function addressesOf(
    lines: AsyncIterable<string> | Iterable<string>,
    plan: Plan,
    kind: 'following' | 'blocks' | 'mutes',
  ) {
    const planned = KINDS.reduce((sum, each) => sum + plan[each].length + plan.skipped[each], 0)
    const { names, skipped } = await listAddresses(lines, publicHost, limits.entries - planned)
    plan[kind].push(...names)
    plan.skipped[kind] += skipped
  }

  function checkSize(plan: Plan) {
    const records = KINDS.reduce((sum, kind) => sum + plan[kind].length, 0)
    if (records > limits.entries) throw badRequest(MSG.importTooManyEntries)
  }

  async function planOfArchive(archive: ArchiveContents): Promise<Plan> {
    const plan = emptyPlan()
    plan.posts = postsOf(archive.texts.get(ARCHIVE_FILES.posts), now())
    plan.bookmarks = bookmarksOf(archive.texts.get(ARCHIVE_FILES.bookmarks))
    for (const [file, kind] of Object.entries(ARCHIVE_LISTS)) {
      const text = archive.texts.get(file)
      if (text !== undefined) await addressesOf(text.split(/\r?\n/), plan, kind)
    }
    return plan
  }

  /**
   * The archive's images that its posts name, each once: what the import will decode. Any that is not an
   * image refuses the whole import; so do more pixels in all than the limit, read from the headers
   * alone, before a single image is decoded. Files no post names are never opened.
   */
  async function imagesToStore(archive: ArchiveContents, plan: Plan): Promise<Map<string, string>> {
    const named = new Map<string, string>()
    let pixels = 0
    for (const name of new Set(plan.posts.map((post) => post.media))) {
      const file = name === undefined ? undefined : archive.files.get(name)
      if (name === undefined || file === undefined) continue
      const size = await pixelsOf(await readFile(file))
      if (size === undefined) throw unsupportedMediaType(MSG.importNotImage)
      pixels += size
      if (pixels > limits.pixels) throw payloadTooLarge(MSG.importTooManyPixels)
      named.set(name, file)
    }
    return named
  }

  /** The images, stored as uploads are, by their name in the archive; all are removed again when one fails. */
  async function storeImages(files: Map<string, string>): Promise<Map<string, MediaReply>> {
    const saved = new Map<string, MediaReply>()
    try {
      for (const [name, file] of files) {
        const image = await saveImage(await readFile(file))
        if (!image) throw unsupportedMediaType(MSG.importNotImage)
        saved.set(name, image)
      }
    } catch (error) {
      for (const image of saved.values()) await removeMedia(image.url)
      throw error
    }
    return saved
  }

  /** Writes what can be, in one transaction; what names nobody here, or crosses a block, is skipped. */
  async function apply(tx: StoreTx, userId: string, plan: Plan, images: Map<string, MediaReply>) {
    const at = now().toISOString()
    const imported = zero()
    const skipped = { ...plan.skipped }
    const count = (kind: Kind, done: boolean) => void (done ? imported[kind]++ : skipped[kind]++)
    const me = await summaryRecordOf(tx, userId)
    if (!me) throw notFound(MSG.userNotRegistered)
    const people = async (names: readonly string[], act: (other: UserRecord) => Promise<boolean>, kind: Kind) => {
      for (const name of names) {
        const other = await tx.getUserByUsername(name)
        const reachable = other && other._id !== userId && !other.pending
        count(kind, reachable ? await act(other) : false)
      }
    }
    const across = async (otherId: string) => blockedEitherWay(await tx.relationBetween(userId, otherId, at))
    // Blocks and mutes follow the rule of the calls (relations.ts), notifications and streams included.
    await people(plan.blocks, async (other) => (await blockIn(tx, me, other, at)) !== undefined, 'blocks')
    const mute = async (other: UserSummaryRecord) => {
      if ((await tx.relationBetween(userId, other._id, at)).mutes) return false
      await muteIn(tx, userId, other, undefined, at)
      return true
    }
    await people(plan.mutes, mute, 'mutes')
    // Imported follows notify nobody: an archive of thousands must not flood anyone's notifications. A
    // locked account is asked, as the call would ask it (DECISIONS §12), and sees the request in its list.
    const follow = async (other: UserRecord) =>
      !(await across(other._id)) &&
      (other.locked ? tx.addFollowRequest(userId, other._id, at) : tx.follow(userId, other._id, at))
    await people(plan.following, follow, 'following')
    for (const postId of plan.bookmarks) {
      const post = await tx.getPost(postId)
      count(
        'bookmarks',
        post !== undefined && !(await across(post.authorId)) && (await tx.addBookmark(userId, postId, at)),
      )
    }
    const conversations = new Map<string, Set<string>>()
    for (const incoming of plan.posts) {
      const image = incoming.media === undefined ? undefined : images.get(incoming.media)
      const mediaUrl =
        image?.url ??
        (isValidMediaUrl(incoming.mediaUrl) && !incoming.mediaUrl.startsWith('/') ? incoming.mediaUrl : '')
      // A post that shows nothing is skipped, as the API refuses one (posts.ts).
      if (!hasVisibleText(incoming.content) && mediaUrl === '') {
        count('posts', false)
        continue
      }
      const post: PostRecord = {
        _id: randomUUID(),
        authorId: userId,
        content: incoming.content,
        mediaUrl,
        type: mediaUrl ? 'image' : '',
        ...(mediaUrl && incoming.mediaAlt !== undefined ? { mediaAlt: incoming.mediaAlt } : {}),
        ...(image ? { mediaWidth: image.width, mediaHeight: image.height } : {}),
        createdAt: incoming.createdAt,
        updatedAt: incoming.createdAt,
        importedAt: at,
        likedBy: [],
        dislikedBy: [],
        comments: [],
        likeCount: 0,
        commentCount: 0,
      }
      if (incoming.visibility === 'direct') await importDirect(tx, post, at, conversations)
      else await tx.insertPost({ ...post, ...(await audienceOfImported(tx, userId, incoming)) })
      count('posts', true)
    }
    for (const [conversationId, people] of conversations) {
      await tellConversation(tx, conversationId, people, new Date(at))
    }
    return { imported, skipped }
  }

  return {
    /** The most an upload to import may be. */
    uploadBytes: limits.uploadBytes,

    /**
     * Imports an archive of Chirp's (a zip, told by its bytes) or one of Mastodon's lists (told by its
     * file name), all or nothing: every check passes before anything is written, and the writes are one
     * transaction. It never creates or changes other people's data. The images it is about to decode are
     * uploads: `spendUploads` counts them against the person's upload limit, or refuses.
     */
    async importFile(userId: string, fileName: string, file: string, spendUploads: (count: number) => Promise<void>) {
      const user = await store.getUser(userId)
      if (!user) throw notFound(MSG.userNotRegistered)
      if (isGuest(user)) throw forbidden(MSG.guestUnchangeable)
      const head = Buffer.alloc(4)
      const handle = await open(file, 'r')
      await handle.read(head, 0, 4, 0).finally(() => handle.close())
      const list = LIST_OF_CSV_NAME[path.basename(fileName).toLowerCase()]
      let plan: Plan
      let images = new Map<string, MediaReply>()
      let archive: ArchiveContents | undefined
      try {
        if (head.equals(ZIP_SIGNATURE)) {
          archive = await readArchive(file, limits, (name) => {
            if (name === ARCHIVE_FILES.posts || name === ARCHIVE_FILES.bookmarks || name in ARCHIVE_LISTS) return 'text'
            return name.startsWith(MEDIA_FOLDER) ? 'file' : undefined
          })
          plan = await planOfArchive(archive)
        } else if (list) {
          plan = emptyPlan()
          await addressesOf(linesOf(createReadStream(file)), plan, list)
        } else {
          throw badRequest(MSG.importUnknownFile)
        }
        checkSize(plan)
        if (archive) {
          const files = await imagesToStore(archive, plan)
          await spendUploads(files.size)
          images = await storeImages(files)
        }
      } finally {
        await archive?.dispose()
      }
      const planned = plan
      try {
        return await store.transaction((tx) => apply(tx, userId, planned, images))
      } catch (error) {
        for (const image of images.values()) await removeMedia(image.url)
        throw error
      }
    },
  }
}

export type AccountImport = ReturnType<typeof createAccountImport>

/** The host people reach Chirp at, as addresses in Mastodon's lists name it. */
export const hostOf = (publicUrl: string) => new URL(publicUrl).host.toLowerCase()
