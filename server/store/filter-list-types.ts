/**
 * What a person keeps to shape their own reading (DECISIONS §15): keyword filters, Mastodon's filters v2,
 * and lists of people they follow, each its own timeline. Both belong to one person and go with them.
 */

export const FILTER_CONTEXTS = ['home', 'notifications', 'public', 'thread', 'account'] as const
export type FilterContext = (typeof FILTER_CONTEXTS)[number]
export type FilterAction = 'warn' | 'hide'

/** One phrase of a filter; a whole-word phrase matches only where words begin and end. */
export interface FilterKeywordRecord {
  readonly _id: string
  readonly keyword: string
  readonly wholeWord: boolean
}

export interface FilterRecord {
  readonly _id: string
  readonly userId: string
  readonly title: string
  readonly contexts: readonly FilterContext[]
  readonly action: FilterAction
  /** When the filter stops applying; null: never. */
  readonly expiresAt: string | null
  readonly keywords: readonly FilterKeywordRecord[]
  readonly createdAt: string
}

export type RepliesPolicy = 'followed' | 'list' | 'none'

export interface ListRecord {
  readonly _id: string
  readonly userId: string
  readonly title: string
  readonly repliesPolicy: RepliesPolicy
  /** Whether the members' posts are left out of the owner's home feed. */
  readonly exclusive: boolean
  /** The people on the list, oldest addition first; only those the owner follows count. */
  readonly memberIds: readonly string[]
  readonly createdAt: string
}

export interface FilterListReads {
  /** The person's filters, the oldest first; none for an unknown user. */
  listFilters(userId: string): Promise<FilterRecord[]>
  /** The person's lists, the oldest first; none for an unknown user. */
  listLists(userId: string): Promise<ListRecord[]>
}

export interface FilterListWrites {
  /** Keeps the filter, new or changed (its `userId` is its owner's); false for an unknown user. */
  putFilter(filter: FilterRecord): Promise<boolean>
  /** Forgets the person's filter; false when they have no such filter. */
  deleteFilter(userId: string, filterId: string): Promise<boolean>
  /** Keeps the list, new or changed; false for an unknown user. */
  putList(list: ListRecord): Promise<boolean>
  /** Forgets the person's list; false when they have no such list. */
  deleteList(userId: string, listId: string): Promise<boolean>
}
