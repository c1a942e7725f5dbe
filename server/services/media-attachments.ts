import { LIMITS } from '../../common/limits.js'
import { unprocessableEntity } from '../errors.js'
import type { ServiceDeps } from './deps.js'
import type { MediaService, Upload } from './media.js'

/**
 * The Mastodon client API's media attachments (DECISIONS §13): an image uploaded on its own, through the
 * media service as POST /api/media stores one (the same checks, limits, re-encoding and storage), then
 * named by its id in the post that shows it. The record of an upload (whose it is, its description and
 * focal point) is kept in the store's shared keys and values, so every instance finds it, for a day, as
 * long as Mastodon keeps an upload nobody attached; the image itself stays until nothing shows it, as
 * every upload does. An id is the upload's own name, so the post that shows it names it the same way.
 */

export interface MediaAttachmentRecord {
  /** The upload's key without its extension, in hex. */
  id: string
  userId: string
  url: string
  width: number
  height: number
  description: string | null
  focus: { x: number; y: number } | null
  createdAt: string
}

/** What may come with an upload, or change after it, as Mastodon's form sends it. */
export interface AttachmentFields {
  description?: string | undefined
  /** `x,y`, each from -1 to 1. */
  focus?: string | undefined
}

/** How long an upload's record is kept: Mastodon forgets an upload nobody attached after a day. */
const KEPT_MS = 86_400_000
const KEY_PREFIX = 'mastodon:media:'
const ID = /^[0-9a-f]{32}$/

/** The images a Chirp post may show. */
const MAX_ATTACHMENTS = LIMITS.postImages

export const attachmentMessages = {
  tooMany: `Validation failed: a post can have at most ${MAX_ATTACHMENTS} images`,
  unknown: (id: string) => `Validation failed: media attachment ${id} is not one of your uploads`,
  description: `Validation failed: a description is at most ${LIMITS.mediaAlt} characters`,
  focus: 'Validation failed: focus is two numbers from -1 to 1, as "x,y"',
}

/** The id a Mastodon client knows an upload of this server's by, from its key (`<uuid>.<type>`). */
export const attachmentIdOf = (key: string) => key.slice(0, key.indexOf('.')).replace(/-/g, '')

function focusOf(text: string): { x: number; y: number } {
  const parts = text.split(',')
  const [x, y] = parts.map((part) => (/^\s*-?\d+(\.\d+)?\s*$/.test(part) ? Number(part) : Number.NaN))
  if (parts.length !== 2 || x === undefined || y === undefined || !(Math.abs(x) <= 1 && Math.abs(y) <= 1)) {
    throw unprocessableEntity(attachmentMessages.focus)
  }
  return { x, y }
}

/** The fields as they will be kept, or the 422 that says what is wrong with them. */
function checked(fields: AttachmentFields): Partial<Pick<MediaAttachmentRecord, 'description' | 'focus'>> {
  const { description, focus } = fields
  if (description !== undefined && description.length > LIMITS.mediaAlt) {
    throw unprocessableEntity(attachmentMessages.description)
  }
  return {
    ...(description !== undefined ? { description: description === '' ? null : description } : {}),
    ...(focus !== undefined ? { focus: focus === '' ? null : focusOf(focus) } : {}),
  }
}

export function createMediaAttachments({ store, now, media }: ServiceDeps & { media: MediaService }) {
  const kv = store.keyValues
  const expiry = (from: Date) => new Date(from.getTime() + KEPT_MS).toISOString()

  /** The person's own upload by its id; undefined for anyone else's, an unknown id or one forgotten. */
  async function own(userId: string, id: string): Promise<MediaAttachmentRecord | undefined> {
    if (!ID.test(id)) return undefined
    const text = await kv.get(`${KEY_PREFIX}${id}`, now().toISOString())
    const record = text === undefined ? undefined : (JSON.parse(text) as MediaAttachmentRecord)
    return record?.userId === userId ? record : undefined
  }

  const keep = (record: MediaAttachmentRecord) =>
    kv.set(`${KEY_PREFIX}${record.id}`, JSON.stringify(record), expiry(new Date(record.createdAt)))

  return {
    own,

    /**
     * Stores the image, then keeps its record. `fields` are read once the upload has ended, as a form may
     * send them before the file or after it; fields refused after the image was stored take it away again.
     */
    async upload(userId: string, upload: Upload, fields: () => AttachmentFields): Promise<MediaAttachmentRecord> {
      checked(fields())
      const saved = await media.save(upload)
      const key = media.keyOf(saved.url)
      try {
        if (key === undefined) throw new Error(`an upload without a key: ${saved.url}`)
        const record: MediaAttachmentRecord = {
          id: attachmentIdOf(key),
          userId,
          url: saved.url,
          width: saved.width,
          height: saved.height,
          description: null,
          focus: null,
          createdAt: now().toISOString(),
          ...checked(fields()),
        }
        await keep(record)
        return record
      } catch (error) {
        await media.remove(saved.url)
        throw error
      }
    },

    /** Changes the description or focal point of one's own upload; undefined for any other id. */
    async update(userId: string, id: string, fields: AttachmentFields) {
      const changes = checked(fields)
      const record = await own(userId, id)
      if (!record) return undefined
      const changed = { ...record, ...changes }
      await keep(changed)
      return changed
    },

    /**
     * The images of a post showing these uploads of the person's, in order, each with its description:
     * none for no ids; a 422, before anything is written, for more than a post shows or an id that is not
     * one of theirs.
     */
    async forPost(userId: string, ids: readonly string[]): Promise<{ media?: { url: string; alt?: string }[] }> {
      if (ids.length > MAX_ATTACHMENTS) throw unprocessableEntity(attachmentMessages.tooMany)
      if (ids.length === 0) return {}
      const media = []
      for (const id of ids) {
        const record = await own(userId, id)
        if (!record) throw unprocessableEntity(attachmentMessages.unknown(id))
        media.push({ url: record.url, ...(record.description ? { alt: record.description } : {}) })
      }
      return { media }
    },
  }
}

export type MediaAttachments = ReturnType<typeof createMediaAttachments>
