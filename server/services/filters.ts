import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound, unprocessableEntity } from '../errors.js'
import type { FilterResult } from '../schemas/filters.js'
import type { Post } from '../schemas/posts.js'
import {
  FILTER_CONTEXTS,
  type FilterAction,
  type FilterContext,
  type FilterKeywordRecord,
  type FilterRecord,
} from '../store/filter-list-types.js'
import type { StoreReader } from '../store/types.js'
import type { ServiceDeps } from './deps.js'

export type { FilterContext, FilterKeywordRecord, FilterRecord }

/** The bounds of keyword filters (DECISIONS §15): each refusal is a 422 that changes nothing. */
export const FILTER_LIMITS = {
  filters: 100,
  keywords: 50,
  title: 100,
  keyword: 200,
  /** The soonest a filter may expire, in seconds from now. */
  minExpiresIn: 60,
} as const

/** A keyword as given: a new one, or a change to (or, with `destroy`, the removal of) one of the filter's. */
export interface KeywordInput {
  id?: string | undefined
  keyword?: string | undefined
  wholeWord?: boolean | undefined
  destroy?: boolean | undefined
}

/** A filter as given; on a change, what is absent stays as it was. */
export interface FilterInput {
  title?: string | undefined
  contexts?: readonly string[] | undefined
  action?: FilterAction | undefined
  /** Seconds from now; null (or 0) for a filter that never expires. */
  expiresIn?: number | null | undefined
  keywords?: readonly KeywordInput[] | undefined
}

const changed = (event: { userId: string }) => ({ name: 'filters.changed', data: {}, to: event.userId }) as const

function checkTitle(title: string): string {
  const trimmed = title.trim()
  if (trimmed === '' || [...trimmed].length > FILTER_LIMITS.title) throw unprocessableEntity(MSG.filterTitleInvalid)
  return trimmed
}

function checkContexts(contexts: readonly string[]): FilterContext[] {
  const known = [...new Set(contexts)].filter((context): context is FilterContext =>
    (FILTER_CONTEXTS as readonly string[]).includes(context),
  )
  if (known.length === 0 || known.length !== new Set(contexts).size)
    throw unprocessableEntity(MSG.filterContextRequired)
  return known
}

function checkKeyword(keyword: string): string {
  const trimmed = keyword.trim()
  if (trimmed === '' || [...trimmed].length > FILTER_LIMITS.keyword) throw unprocessableEntity(MSG.filterKeywordInvalid)
  return trimmed
}

function expiresAtOf(expiresIn: number | null, at: Date): string | null {
  if (expiresIn === null || expiresIn === 0) return null
  if (!Number.isFinite(expiresIn) || expiresIn < FILTER_LIMITS.minExpiresIn)
    throw unprocessableEntity(MSG.filterExpiresTooSoon)
  return new Date(at.getTime() + Math.floor(expiresIn) * 1000).toISOString()
}

/** The filter's keywords after the changes given: ids kept, new ones made, removals taken out. */
function keywordsAfter(
  keywords: readonly FilterKeywordRecord[],
  inputs: readonly KeywordInput[],
): FilterKeywordRecord[] {
  let next = [...keywords]
  for (const input of inputs) {
    if (input.id !== undefined) {
      const known = next.find((keyword) => keyword._id === input.id)
      if (!known) throw notFound(MSG.filterKeywordNotFound)
      next = input.destroy
        ? next.filter((keyword) => keyword._id !== input.id)
        : next.map((keyword) =>
            keyword._id === input.id
              ? {
                  ...keyword,
                  ...(input.keyword !== undefined ? { keyword: checkKeyword(input.keyword) } : {}),
                  ...(input.wholeWord !== undefined ? { wholeWord: input.wholeWord } : {}),
                }
              : keyword,
          )
    } else if (!input.destroy) {
      next.push({ _id: randomUUID(), keyword: checkKeyword(input.keyword ?? ''), wholeWord: input.wholeWord ?? true })
    }
  }
  if (next.length > FILTER_LIMITS.keywords) throw unprocessableEntity(MSG.tooManyFilterKeywords)
  return next
}

/** Keyword filters, Mastodon's filters v2 (DECISIONS §15): each person's own, within FILTER_LIMITS. */
export function createFiltersService({ store, now }: ServiceDeps) {
  async function mustGet(userId: string, filterId: string): Promise<FilterRecord> {
    const found = (await store.listFilters(userId)).find((filter) => filter._id === filterId)
    if (!found) throw notFound(MSG.filterNotFound)
    return found
  }

  /** The filter that holds the keyword, and the keyword. */
  async function keywordOf(userId: string, keywordId: string) {
    for (const filter of await store.listFilters(userId)) {
      const keyword = filter.keywords.find((each) => each._id === keywordId)
      if (keyword) return { filter, keyword }
    }
    throw notFound(MSG.filterKeywordNotFound)
  }

  /** Writes the filter, counting its owner's in the same transaction; the filter as kept. */
  async function put(filter: FilterRecord, isNew: boolean): Promise<FilterRecord> {
    await store.transaction(async (tx) => {
      if (isNew && (await tx.listFilters(filter.userId)).length >= FILTER_LIMITS.filters)
        throw unprocessableEntity(MSG.tooManyFilters)
      if (!(await tx.putFilter(filter))) throw notFound(MSG.userNotRegistered)
      tx.emit(changed(filter))
    })
    return filter
  }

  return {
    list: (userId: string) => store.listFilters(userId),
    get: mustGet,

    async create(userId: string, input: FilterInput): Promise<FilterRecord> {
      const at = now()
      return put(
        {
          _id: randomUUID(),
          userId,
          title: checkTitle(input.title ?? ''),
          contexts: checkContexts(input.contexts ?? []),
          action: input.action ?? 'warn',
          expiresAt: expiresAtOf(input.expiresIn ?? null, at),
          keywords: keywordsAfter([], input.keywords ?? []),
          createdAt: at.toISOString(),
        },
        true,
      )
    },

    async update(userId: string, filterId: string, input: FilterInput): Promise<FilterRecord> {
      const filter = await mustGet(userId, filterId)
      return put(
        {
          ...filter,
          ...(input.title !== undefined ? { title: checkTitle(input.title) } : {}),
          ...(input.contexts !== undefined ? { contexts: checkContexts(input.contexts) } : {}),
          ...(input.action !== undefined ? { action: input.action } : {}),
          ...(input.expiresIn !== undefined ? { expiresAt: expiresAtOf(input.expiresIn, now()) } : {}),
          keywords: keywordsAfter(filter.keywords, input.keywords ?? []),
        },
        false,
      )
    },

    async remove(userId: string, filterId: string): Promise<void> {
      await store.transaction(async (tx) => {
        if (!(await tx.deleteFilter(userId, filterId))) throw notFound(MSG.filterNotFound)
        tx.emit(changed({ userId }))
      })
    },

    keywordOf,

    async addKeyword(userId: string, filterId: string, keyword: KeywordInput) {
      const filter = await mustGet(userId, filterId)
      const kept = await put(
        { ...filter, keywords: keywordsAfter(filter.keywords, [{ ...keyword, id: undefined, destroy: false }]) },
        false,
      )
      const added = kept.keywords.at(-1)
      if (!added) throw badRequest(MSG.filterKeywordInvalid)
      return { filter: kept, keyword: added }
    },

    async updateKeyword(userId: string, keywordId: string, change: KeywordInput) {
      const { filter } = await keywordOf(userId, keywordId)
      const kept = await put(
        { ...filter, keywords: keywordsAfter(filter.keywords, [{ ...change, id: keywordId, destroy: false }]) },
        false,
      )
      const keyword = kept.keywords.find((each) => each._id === keywordId)
      if (!keyword) throw notFound(MSG.filterKeywordNotFound)
      return { filter: kept, keyword }
    },

    async removeKeyword(userId: string, keywordId: string): Promise<void> {
      const { filter } = await keywordOf(userId, keywordId)
      await put({ ...filter, keywords: keywordsAfter(filter.keywords, [{ id: keywordId, destroy: true }]) }, false)
    },
  }
}

export type FiltersService = ReturnType<typeof createFiltersService>

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const WORD = /[\p{L}\p{N}_]/u

/** A keyword as a pattern: a whole-word one is bounded where it starts or ends with a letter or digit. */
function patternOf({ keyword, wholeWord }: FilterKeywordRecord): RegExp {
  const body = escaped(keyword)
  if (!wholeWord) return new RegExp(body, 'iu')
  const start = WORD.test(keyword.charAt(0)) ? '(?<![\\p{L}\\p{N}_])' : ''
  const end = WORD.test(keyword.charAt(keyword.length - 1)) ? '(?![\\p{L}\\p{N}_])' : ''
  return new RegExp(`${start}${body}${end}`, 'iu')
}

/** What a filter reads of a post: its text, content warning, image description and poll options. */
export const textsOf = (post: Pick<Post, 'content' | 'spoilerText' | 'mediaAlt' | 'poll'>): string[] => [
  post.content,
  post.spoilerText ?? '',
  post.mediaAlt ?? '',
  ...(post.poll?.options.map((option) => option.text) ?? []),
]

/** What the reader's filters make of a post in one context: hidden, shown with warnings, or as it is. */
export type Judgement = { hide: true } | { hide: false; filtered: FilterResult[] }

/** Someone's words as a filter reads them: who wrote them (by username) and the texts. */
export interface Written {
  username: string
  texts: readonly string[]
}

/**
 * Filters of one context as a judge of anything written, at the moment given: a filter that has expired by
 * then counts for nothing. Words of `own` (the reader's username) are never filtered, as Mastodon leaves
 * one's own statuses alone. Undefined when none of the filters could ever match in the context.
 */
export function judgeOfFilters(
  filters: readonly FilterRecord[],
  own: string | undefined,
  context: FilterContext,
): ((written: Written, at: Date) => Judgement) | undefined {
  const compiled = filters
    .filter((filter) => filter.contexts.includes(context) && filter.keywords.length > 0)
    .map((filter) => ({
      filter,
      patterns: filter.keywords.map((keyword) => ({ keyword: keyword.keyword, pattern: patternOf(keyword) })),
    }))
  if (compiled.length === 0) return undefined
  return ({ username, texts }, at) => {
    if (username === own) return { hide: false, filtered: [] }
    const when = at.toISOString()
    const filtered: FilterResult[] = []
    for (const { filter, patterns } of compiled) {
      if (filter.expiresAt !== null && filter.expiresAt <= when) continue
      const matches = patterns.filter(({ pattern }) => texts.some((text) => pattern.test(text)))
      if (matches.length === 0) continue
      if (filter.action === 'hide') return { hide: true }
      filtered.push({
        filter: {
          id: filter._id,
          title: filter.title,
          context: [...filter.contexts],
          expires_at: filter.expiresAt,
          filter_action: 'warn',
        },
        keyword_matches: matches.map(({ keyword }) => keyword),
      })
    }
    return { hide: false, filtered }
  }
}

/** The post as a judgement leaves it: undefined when hidden, with `filtered` when warned of. */
export function judged<T extends Post>(post: T, judgement: Judgement): T | undefined {
  if (judgement.hide) return undefined
  return judgement.filtered.length > 0 ? { ...post, filtered: judgement.filtered } : post
}

/** The reader's filters in force at `at` for one context, as a judge of anything written (judgeOfFilters). */
export async function wordsJudge(
  store: StoreReader,
  readerId: string | undefined,
  context: FilterContext,
  at: Date,
): Promise<((written: Written) => Judgement) | undefined> {
  if (readerId === undefined) return undefined
  const when = at.toISOString()
  const active = (await store.listFilters(readerId)).filter(
    (filter) => filter.expiresAt === null || filter.expiresAt > when,
  )
  if (!active.some((filter) => filter.contexts.includes(context) && filter.keywords.length > 0)) return undefined
  const judge = judgeOfFilters(active, (await store.getAccount(readerId))?.username, context)
  return judge && ((written) => judge(written, at))
}

/** The reader's filters of one context as a judge of posts (wordsJudge). */
export async function filterJudge(
  store: StoreReader,
  readerId: string | undefined,
  context: FilterContext,
  at: Date,
): Promise<((post: Post) => Judgement) | undefined> {
  const judge = await wordsJudge(store, readerId, context, at)
  return judge && ((post) => judge({ username: post.username, texts: textsOf(post) }))
}

/** The posts as the reader's filters of the context leave them: hidden ones out, warned ones with `filtered`. */
export async function applyFilters<T extends Post>(
  store: StoreReader,
  readerId: string | undefined,
  context: FilterContext,
  posts: readonly T[],
  at: Date,
): Promise<T[]> {
  const judge = await filterJudge(store, readerId, context, at)
  if (!judge) return [...posts]
  return posts.flatMap((post) => judged(post, judge(post)) ?? [])
}
