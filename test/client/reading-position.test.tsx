import './dom.js'
import { cleanup, screen } from '@testing-library/react'
import t from 'tap'
import { watchReadingPosition } from '../../client/lib/reading-position.js'
import { ExplorePage } from '../../client/pages/explore-page.js'
import { lists, loadExplore } from '../../client/state/lists.js'
import { makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

/**
 * Back to a list finds it as it was left: the pages it had loaded, and the scroll position, once the
 * list is drawn again. A new visit (a link, not the history) reads it afresh, from its top.
 */
const scrolls: number[] = []
window.scrollTo = ((x: number, y: number) => void scrolls.push(y)) as typeof window.scrollTo
watchReadingPosition()

const me = makeUser({ username: 'guest' })
const pageOf = (from: number) =>
  Array.from({ length: 10 }, (_, i) =>
    makePost({ _id: `p${from + i}`, id: `p${from + i}`, content: `Post ${from + i}` }),
  )
const api = stubApi({
  'GET /api/posts': (request) =>
    ok(request.query.get('cursor') ? { posts: pageOf(10), nextCursor: null } : { posts: pageOf(0), nextCursor: 'c1' }),
})
t.teardown(api.restore)
t.afterEach(() => cleanup())

/** As the browser and wouter move: the address changes, then the app is told (wouter announces a push as `pushState`). */
function go(path: string, how: 'pushState' | 'popstate') {
  // The History's own method: wouter wraps the instance's with one that expects a browser's globals.
  History.prototype.pushState.call(window.history, null, '', path)
  window.dispatchEvent(how === 'popstate' ? new window.PopStateEvent('popstate') : new window.Event('pushState'))
}
function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true })
  window.dispatchEvent(new window.Event('scroll'))
}

await t.test('Back to a list keeps its pages and scrolls to where the reader was', async (t) => {
  resetAll()
  signInAs(me)
  go('/explore', 'pushState')
  await loadExplore()
  await loadExplore(true)
  t.equal(lists.explore.items.length, 20, 'two pages were read')
  scrollTo(1234)

  go('/post-detail/p15', 'pushState')
  t.equal(scrolls.at(-1), 0, 'a new page starts at its top')
  scrollTo(0)

  const reads = api.calls.length
  go('/explore', 'popstate')
  renderAt('/explore', <ExplorePage />)
  await until(() => screen.queryAllByRole('article').length === 20)
  t.equal(api.calls.length, reads, 'nothing is read again')
  await until(() => scrolls.at(-1) === 1234)
  t.pass('the scroll is back at 1234 px once the 20 posts are drawn')
})

await t.test('a new visit to a list reads its first page afresh', async (t) => {
  go('/post-detail/p15', 'pushState')
  const reads = api.calls.length
  go('/explore', 'pushState')
  renderAt('/explore', <ExplorePage />)
  await until(() => lists.explore.loaded && !lists.explore.loading)
  t.equal(api.calls.length, reads + 1, 'the first page is read again')
  t.equal(lists.explore.items.length, 10, 'one page is shown')
  t.equal(scrolls.at(-1), 0, 'from the top')
})

await t.test('scrolling reads no position: it is read once, as the reader leaves the address', async (t) => {
  go('/explore', 'pushState')
  let reads = 0
  Object.defineProperty(window, 'scrollY', {
    configurable: true,
    get: () => {
      reads++
      return 640
    },
  })
  for (let i = 0; i < 5; i++) window.dispatchEvent(new window.Event('scroll'))
  t.equal(reads, 0, 'reading scrollY lays out what changed first: never at each scroll event')
  go('/post-detail/p15', 'pushState')
  t.equal(reads, 1, 'read as the reader leaves')
  Object.defineProperty(window, 'scrollY', { value: 0, configurable: true })
  go('/explore', 'popstate')
  renderAt('/explore', <ExplorePage />)
  await until(() => scrolls.at(-1) === 640)
  t.pass('and Back scrolls to it')
})
