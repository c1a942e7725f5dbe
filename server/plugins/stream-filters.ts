import type { EventPayloads } from '../schemas/events.js'
import { judgeOfFilters, judged, textsOf, type Judgement, type Written } from '../services/filters.js'
import type { FilterRecord } from '../store/filter-list-types.js'

/** A reader's keyword filters, and their own username (their own words are never filtered). */
export interface ReaderFilters {
  readonly filters: readonly FilterRecord[]
  readonly username: string | undefined
}

/** A frame as the hub keeps it: its event's name, and the frame as every reader would get it. */
interface Framed {
  id: number
  name: string
  frame: Buffer
}

type Judge = (written: Written, at: Date) => Judgement

const POST_CREATED = 'post.created'
const DATA = '\ndata: '

/** The JSON a frame carries: JSON.stringify writes no line breaks, so the data is the one line after `data: `. */
const dataOf = (frame: Buffer) => {
  const text = frame.toString()
  return text.slice(text.indexOf(DATA) + DATA.length, text.lastIndexOf('\n\n'))
}

/**
 * The home filters of each reader with a stream open on this instance (DECISIONS §15: `home` is the home
 * feed and its live `post.created`): a new post a reader's filter hides never reaches their streams, and
 * one a `warn` filter matches reaches them carrying `filtered`, as their home feed shows it. Read when the
 * reader's first stream here opens and again on each `filters.changed` of theirs, which every instance
 * hears, so a filter written through one instance applies on all of them.
 */
export function createStreamFilters(options: {
  load: (userId: string) => Promise<ReaderFilters>
  now: () => number
  log?: { warn(obj: object, msg: string): void } | undefined
}) {
  /** The reader's judge of the home context, or undefined when no filter of theirs could match there. */
  const readers = new Map<string, Judge | undefined>()
  const judgeOf = ({ filters, username }: ReaderFilters) => judgeOfFilters(filters, username, 'home')

  return {
    async watch(userId: string): Promise<void> {
      if (readers.has(userId)) return
      const judge = judgeOf(await options.load(userId))
      if (!readers.has(userId)) readers.set(userId, judge)
    },

    /** The reader's last stream here ended. */
    forget(userId: string): void {
      readers.delete(userId)
    },

    /** Reads the reader's filters again; until it lands their streams keep the filters they had. */
    async reload(userId: string): Promise<void> {
      if (!readers.has(userId)) return
      try {
        const judge = judgeOf(await options.load(userId))
        if (readers.has(userId)) readers.set(userId, judge)
      } catch (err) {
        options.log?.warn({ userId, err }, "could not read a reader's filters; kept as they were")
      }
    },

    /** The frame the reader gets: as it is, another carrying `filtered`, or undefined when a filter hides it. */
    frameFor(userId: string, entry: Framed): Buffer | undefined {
      const judge = readers.get(userId)
      if (judge === undefined || entry.name !== POST_CREATED) return entry.frame
      const data = JSON.parse(dataOf(entry.frame)) as EventPayloads['post.created']
      const { post } = data
      const shown = judged(post, judge({ username: post.username, texts: textsOf(post) }, new Date(options.now())))
      if (shown === undefined) return undefined
      if (shown === post) return entry.frame
      return Buffer.from(`id: ${entry.id}\nevent: ${entry.name}\ndata: ${JSON.stringify({ ...data, post: shown })}\n\n`)
    },
  }
}
