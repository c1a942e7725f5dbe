import { randomUUID } from 'node:crypto'
import { MSG, notFound, unprocessableEntity } from '../errors.js'
import type { ListRecord, RepliesPolicy } from '../store/filter-list-types.js'
import type { StoreReader } from '../store/types.js'
import type { ServiceDeps } from './deps.js'

export type { ListRecord }

/** The bounds of lists (DECISIONS §15): each refusal is a 422 that changes nothing. */
export const LIST_LIMITS = { lists: 50, members: 500, title: 100 } as const

export interface ListInput {
  title?: string | undefined
  repliesPolicy?: RepliesPolicy | undefined
  exclusive?: boolean | undefined
}

function checkTitle(title: string): string {
  const trimmed = title.trim()
  if (trimmed === '' || [...trimmed].length > LIST_LIMITS.title) throw unprocessableEntity(MSG.listTitleInvalid)
  return trimmed
}

/** The people of the list who count: those its owner follows, in the list's order. */
export async function membersOf(store: StoreReader, list: ListRecord): Promise<string[]> {
  if (list.memberIds.length === 0) return []
  const followed = await store.followedAmong(list.userId, list.memberIds)
  return list.memberIds.filter((id) => followed.has(id))
}

/** Whom the person's exclusive lists keep out of their home feed. */
export async function exclusiveMembers(store: StoreReader, userId: string): Promise<string[]> {
  const lists = (await store.listLists(userId)).filter((list) => list.exclusive)
  return [...new Set(lists.flatMap((list) => list.memberIds))]
}

/** A person's lists of people they follow, each its own timeline (DECISIONS §15), within LIST_LIMITS. */
export function createListsService({ store, now }: ServiceDeps) {
  async function mustGet(userId: string, listId: string): Promise<ListRecord> {
    const found = (await store.listLists(userId)).find((list) => list._id === listId)
    if (!found) throw notFound(MSG.listNotFound)
    return found
  }

  /** Writes the list after `change` has seen it as it is in the transaction; the list as kept. */
  async function change(
    userId: string,
    listId: string,
    next: (list: ListRecord, tx: Parameters<Parameters<typeof store.transaction>[0]>[0]) => Promise<ListRecord>,
  ): Promise<ListRecord> {
    return store.transaction(async (tx) => {
      const list = (await tx.listLists(userId)).find((each) => each._id === listId)
      if (!list) throw notFound(MSG.listNotFound)
      const kept = await next(list, tx)
      await tx.putList(kept)
      tx.emit({ name: 'lists.changed', data: {}, to: userId })
      return kept
    })
  }

  return {
    list: (userId: string) => store.listLists(userId),
    get: mustGet,

    /** The people on the list who count, those its owner follows. */
    async members(userId: string, listId: string): Promise<string[]> {
      return membersOf(store, await mustGet(userId, listId))
    },

    /** The person's lists that hold `accountId`. */
    async holding(userId: string, accountId: string): Promise<ListRecord[]> {
      return (await store.listLists(userId)).filter((list) => list.memberIds.includes(accountId))
    },

    async create(userId: string, input: ListInput): Promise<ListRecord> {
      const list: ListRecord = {
        _id: randomUUID(),
        userId,
        title: checkTitle(input.title ?? ''),
        repliesPolicy: input.repliesPolicy ?? 'list',
        exclusive: input.exclusive ?? false,
        memberIds: [],
        createdAt: now().toISOString(),
      }
      await store.transaction(async (tx) => {
        if ((await tx.listLists(userId)).length >= LIST_LIMITS.lists) throw unprocessableEntity(MSG.tooManyLists)
        if (!(await tx.putList(list))) throw notFound(MSG.userNotRegistered)
        tx.emit({ name: 'lists.changed', data: {}, to: userId })
      })
      return list
    },

    update(userId: string, listId: string, input: ListInput): Promise<ListRecord> {
      const title = input.title === undefined ? undefined : checkTitle(input.title)
      return change(userId, listId, async (list) => ({
        ...list,
        ...(title !== undefined ? { title } : {}),
        ...(input.repliesPolicy !== undefined ? { repliesPolicy: input.repliesPolicy } : {}),
        ...(input.exclusive !== undefined ? { exclusive: input.exclusive } : {}),
      }))
    },

    async remove(userId: string, listId: string): Promise<void> {
      await store.transaction(async (tx) => {
        if (!(await tx.deleteList(userId, listId))) throw notFound(MSG.listNotFound)
        tx.emit({ name: 'lists.changed', data: {}, to: userId })
      })
    },

    /** Adds people the owner follows; anyone they do not follow is a 422 and nobody is added. */
    addMembers(userId: string, listId: string, accountIds: readonly string[]): Promise<ListRecord> {
      return change(userId, listId, async (list, tx) => {
        const asked = [...new Set(accountIds)]
        const followed = await tx.followedAmong(userId, asked)
        if (asked.some((id) => !followed.has(id))) throw unprocessableEntity(MSG.listMemberNotFollowed)
        const current = await membersOf(tx, list)
        const memberIds = [...current, ...asked.filter((id) => !current.includes(id))]
        if (memberIds.length > LIST_LIMITS.members) throw unprocessableEntity(MSG.tooManyListMembers)
        return { ...list, memberIds }
      })
    },

    removeMembers(userId: string, listId: string, accountIds: readonly string[]): Promise<ListRecord> {
      const leaving = new Set(accountIds)
      return change(userId, listId, async (list) => ({
        ...list,
        memberIds: list.memberIds.filter((id) => !leaving.has(id)),
      }))
    },
  }
}

export type ListsService = ReturnType<typeof createListsService>
