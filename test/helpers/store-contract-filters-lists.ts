import type { FilterRecord, ListRecord } from '../../server/store/types.js'
import { MALFORMED, UNKNOWN, type ContractCase, type Fixture, type ReadCase } from './store-contract.js'

const FILTER = '10000000-0000-4000-8000-000000000001'
const OTHER_FILTER = '10000000-0000-4000-8000-000000000002'
const LIST = '20000000-0000-4000-8000-000000000001'
const OTHER_LIST = '20000000-0000-4000-8000-000000000002'

/** The reads of filters and lists: before any is made, and after the writes and an owner's deletion. */
export function filterListReads(f: Fixture): ReadCase[] {
  const [u0, , , , u4] = f.u as [string, string, string, string, string]
  return [
    { op: 'listFilters', name: "someone's filters", read: (s) => s.listFilters(u0) },
    { op: 'listFilters', name: 'of someone deleted later', read: (s) => s.listFilters(u4) },
    { op: 'listFilters', name: 'of nobody', read: (s) => s.listFilters(MALFORMED) },
    { op: 'listLists', name: "someone's lists", read: (s) => s.listLists(u0) },
    { op: 'listLists', name: 'of someone deleted later', read: (s) => s.listLists(u4) },
    { op: 'listLists', name: 'of nobody', read: (s) => s.listLists(UNKNOWN) },
  ]
}

/**
 * Filters and lists made, changed, and deleted, for their owner alone; u[4]'s stay for its deletion to take.
 */
export function filterListWrites(f: Fixture): ContractCase[] {
  const { at } = f
  const [u0, u1, , , u4, u5] = f.u as [string, string, string, string, string, string]
  const filter = (id: string, userId: string, title: string): FilterRecord => ({
    _id: id,
    userId,
    title,
    contexts: ['home', 'public'],
    action: 'warn',
    expiresAt: null,
    keywords: [{ _id: '30000000-0000-4000-8000-000000000001', keyword: 'spoiler', wholeWord: true }],
    createdAt: at(90),
  })
  const list = (id: string, userId: string, memberIds: string[]): ListRecord => ({
    _id: id,
    userId,
    title: 'Friends',
    repliesPolicy: 'list',
    exclusive: false,
    memberIds,
    createdAt: at(90),
  })
  return [
    { op: 'putFilter', name: 'a filter', write: (tx) => tx.putFilter(filter(FILTER, u0, 'Spoilers')) },
    {
      op: 'putFilter',
      name: 'changed',
      write: (tx) =>
        tx.putFilter({ ...filter(FILTER, u0, 'Spoilers!'), action: 'hide', expiresAt: at(200), contexts: ['thread'] }),
    },
    { op: 'putFilter', name: 'for nobody', write: (tx) => tx.putFilter(filter(OTHER_FILTER, UNKNOWN, 'x')) },
    { op: 'putFilter', name: 'for nobody at all', write: (tx) => tx.putFilter(filter(OTHER_FILTER, MALFORMED, 'x')) },
    { op: 'putFilter', name: 'of someone deleted later', write: (tx) => tx.putFilter(filter(OTHER_FILTER, u4, 'x')) },
    { op: 'deleteFilter', name: "another's", write: (tx) => tx.deleteFilter(u1, FILTER) },
    { op: 'deleteFilter', name: 'unknown', write: (tx) => tx.deleteFilter(u0, MALFORMED) },
    { op: 'listFilters', name: 'staged in the transaction', read: (s) => s.listFilters(u0) },
    { op: 'putList', name: 'a list', write: (tx) => tx.putList(list(LIST, u0, [u1, u5])) },
    {
      op: 'putList',
      name: 'changed',
      write: (tx) => tx.putList({ ...list(LIST, u0, [u5]), title: 'Close', exclusive: true, repliesPolicy: 'none' }),
    },
    { op: 'putList', name: 'for nobody', write: (tx) => tx.putList(list(OTHER_LIST, UNKNOWN, [])) },
    { op: 'putList', name: 'of someone deleted later', write: (tx) => tx.putList(list(OTHER_LIST, u4, [u0])) },
    { op: 'deleteList', name: "another's", write: (tx) => tx.deleteList(u1, LIST) },
    { op: 'deleteList', name: 'unknown', write: (tx) => tx.deleteList(u0, UNKNOWN) },
    {
      op: 'deleteList',
      name: 'made and deleted in one transaction',
      write: async (tx) => {
        await tx.putList(list('20000000-0000-4000-8000-000000000003', u0, []))
        return [await tx.deleteList(u0, '20000000-0000-4000-8000-000000000003'), await tx.listLists(u0)]
      },
    },
    {
      op: 'deleteFilter',
      name: 'made and deleted in one transaction',
      write: async (tx) => {
        await tx.putFilter(filter('10000000-0000-4000-8000-000000000003', u0, 'Gone'))
        return [await tx.deleteFilter(u0, '10000000-0000-4000-8000-000000000003'), await tx.listFilters(u0)]
      },
    },
    { op: 'listLists', name: 'staged in the transaction', read: (s) => s.listLists(u0) },
  ]
}
