/** The whole app, signed in, with live updates over a fake stream: what the live-* tests drive. */
import type { User } from '../../client/api/types.js'
import { App } from '../../client/app.js'
import { makePost, makeUser, ok, renderAt, signInAs, stubApi } from './helpers.js'
import { startFakeLive } from './live-fakes.js'

export type Routes = Parameters<typeof stubApi>[0]

/** A time after every sample record's, for the `updatedAt` an event carries. */
export const LATER = new Date('2026-01-11T09:00:00.000Z').toISOString()

/**
 * Fresh records for each test, since valtio keeps (and mutates) the very objects it is handed: me (guest,
 * with an email and p1 bookmarked), Maya, Theo, and p1, a post by Maya.
 */
export function samples() {
  const p1 = makePost({ _id: 'p1', id: 'p1', content: 'A post to watch' })
  return {
    p1,
    me: makeUser({ username: 'guest', email: 'guest@example.com', bookmarks: [p1] }),
    maya: makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya' }),
    theo: makeUser({ username: 'theo', firstName: 'Theo', lastName: 'Park', _id: 'id-theo' }),
  }
}

/**
 * Renders the app at `path` signed in as `me` (their own record), over the stubbed `routes`, and starts live
 * updates. Who to follow is empty unless `routes` says otherwise.
 */
export async function liveApp(t: { teardown(fn: () => unknown): void }, me: User, path: string, routes: Routes = {}) {
  signInAs(me)
  const api = stubApi({
    'POST /api/events/ticket': () => ok({ ticket: 'ticket-1' }),
    'GET /api/users/suggestions': () => ok({ users: [] }),
    ...routes,
  })
  t.teardown(api.restore)
  renderAt(path, <App />)
  return { api, ...(await startFakeLive(t)) }
}
