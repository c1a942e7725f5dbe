import { proxy } from 'valtio'
import {
  apiAddListMember,
  apiCreatePeopleList,
  apiDeletePeopleList,
  apiListMembers,
  apiPeopleLists,
  apiRemoveListMember,
  apiUpdatePeopleList,
  type ListMember,
  type PeopleList,
  type PeopleListDraft,
} from '../api/lists.js'
import { errorMessage, isRetryable } from '../api/http.js'

/**
 * My lists of people I follow (DECISIONS §15): the lists themselves, and the people of the one open.
 * Each change is made on the server first; the state follows its answer.
 */
const initial = () => ({
  items: [] as PeopleList[],
  loaded: false,
  loading: false,
  error: null as string | null,
  retryable: true,
  /** The list open on screen: its id and its people (by user id), once read. */
  open: { id: '', members: [] as ListMember[], loaded: false, error: null as string | null },
})

export const peopleLists = proxy(initial())

export async function loadPeopleLists(): Promise<void> {
  peopleLists.loading = true
  peopleLists.error = null
  try {
    peopleLists.items = await apiPeopleLists()
    peopleLists.loaded = true
  } catch (error) {
    peopleLists.error = errorMessage(error)
    peopleLists.retryable = isRetryable(error)
  } finally {
    peopleLists.loading = false
  }
}

export async function createPeopleList(draft: PeopleListDraft): Promise<PeopleList> {
  const made = await apiCreatePeopleList(draft)
  peopleLists.items = [...peopleLists.items.filter((list) => list.id !== made.id), made]
  return made
}

export async function updatePeopleList(id: string, draft: PeopleListDraft): Promise<void> {
  const kept = await apiUpdatePeopleList(id, draft)
  peopleLists.items = peopleLists.items.map((list) => (list.id === id ? kept : list))
}

export async function deletePeopleList(id: string): Promise<void> {
  await apiDeletePeopleList(id)
  peopleLists.items = peopleLists.items.filter((list) => list.id !== id)
}

/** The people of the list now open; a list opened since wins over this answer. */
export async function loadListMembers(id: string): Promise<void> {
  if (peopleLists.open.id !== id) peopleLists.open = { id, members: [], loaded: false, error: null }
  try {
    const members = await apiListMembers(id)
    if (peopleLists.open.id === id) peopleLists.open = { id, members, loaded: true, error: null }
  } catch (error) {
    if (peopleLists.open.id === id) peopleLists.open.error = errorMessage(error)
  }
}

export async function addListMember(id: string, userId: string): Promise<void> {
  await apiAddListMember(id, userId)
  await loadListMembers(id)
}

export async function removeListMember(id: string, userId: string): Promise<void> {
  await apiRemoveListMember(id, userId)
  if (peopleLists.open.id === id)
    peopleLists.open.members = peopleLists.open.members.filter((member) => member.id !== userId)
}

/** Whether a post by `username` belongs in the open list's timeline. */
export function inOpenList(username: string): boolean {
  return peopleLists.open.loaded && peopleLists.open.members.some((member) => member.username === username)
}

/** My lists changed in another tab or app: what is shown is read again. */
export function refreshPeopleLists(): void {
  if (peopleLists.loaded) void loadPeopleLists()
  if (peopleLists.open.id) void loadListMembers(peopleLists.open.id)
}

export function reset(): void {
  Object.assign(peopleLists, initial())
}
