import './dom.js'
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import type * as Tap from 'tap'
import type { Post } from '../../client/api/types.js'
import { App } from '../../client/app.js'
import { PostCard } from '../../client/components/post-card.js'
import { cachePosts, reset as resetPostCache, uncachePost, watchCachedSlot } from '../../client/state/post-cache.js'
import { cardProps, makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'
import { allRules } from './stylesheets.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

/** Explore, signed in as guest, showing `posts` (one page) once every card is drawn. */
async function exploreWith(t: Tap.Test, posts: Post[]): Promise<HTMLElement> {
  const me = makeUser({ username: 'guest' })
  signInAs(me)
  const api = stubApi({
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/posts': () => ok({ posts, nextCursor: null }),
    'GET /api/feed': () => ok({ posts: [], nextCursor: null }),
    'GET /api/users/guest': () => ok({ user: me }),
  })
  t.teardown(api.restore)
  const { container } = renderAt('/explore', <App />)
  await until(() => container.querySelectorAll('main article.post-card').length === posts.length, 20_000)
  return container
}

await t.test(
  'no stylesheet rule uses :has(), which rechecks every card of a long list on each change in one',
  async (t) => {
    const found = (await allRules()).filter((rule) => rule.selector.includes(':has('))
    t.same(
      found.map((rule) => `${rule.file}: ${rule.selector}`),
      [],
    )
  },
)

await t.test('a list card off screen is skipped, but drawn in full while a popover is open in it', async (t) => {
  const all = await allRules()
  const card = all.find(
    (rule) => rule.selector === '.post-card.is-clickable' && rule.declarations.has('content-visibility'),
  )
  t.equal(card?.declarations.get('content-visibility'), 'auto')
  t.match(card?.declarations.get('contain-intrinsic-size') ?? '', /^auto \d+px$/)
  const open = all.find((rule) => rule.selector === '.post-card.is-clickable.has-popover')
  t.equal(open?.declarations.get('content-visibility'), 'visible')
})

await t.test('the card is marked while its menu is open, and unmarked once it closes', async (t) => {
  renderAt('/', <PostCard {...cardProps({ me: 'maya' })} />)
  const card = screen.getByRole('article')
  const button = screen.getByRole('button', { name: 'Post options' })
  t.notOk(card.classList.contains('has-popover'))
  fireEvent.click(button)
  t.ok(card.classList.contains('has-popover'), 'open')
  fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' })
  t.equal(screen.queryByRole('menu'), null)
  t.notOk(card.classList.contains('has-popover'), 'closed')
  fireEvent.click(button)
  fireEvent.click(button)
  t.notOk(card.classList.contains('has-popover'), 'opened and closed again by its button')
})

await t.test('a long list comes in groups of 20 that are skipped off screen, and j walks across them', async (t) => {
  const container = await exploreWith(
    t,
    Array.from({ length: 25 }, (_, i) =>
      makePost({ _id: `p${i + 1}`, id: `p${i + 1}`, content: `Post number ${i + 1}`, username: 'guest' }),
    ),
  )
  const groups = [...container.querySelectorAll('.post-list > .post-chunk')]
  t.same(
    groups.map((group) => group.querySelectorAll('article.post-card').length),
    [20, 5],
  )

  const all = await allRules()
  const chunk = all.find((rule) => rule.selector === '.post-chunk')
  t.equal(chunk?.declarations.get('content-visibility'), 'auto')
  const drawn = all.filter((rule) => rule.declarations.get('content-visibility') === 'visible')
  t.ok(drawn.some((rule) => rule.selector.split(', ').includes('.post-chunk.has-popover')))
  t.ok(drawn.some((rule) => rule.selector.split(', ').includes('.post-chunk > .post-card.is-clickable')))
  // A remembered size (`auto`) has the browser watch the card's size at every frame: none for cards in a group.
  const inGroup = all.find((rule) => rule.selector === '.post-chunk > .post-card.is-clickable')
  t.equal(inGroup?.declarations.get('contain-intrinsic-size'), 'none')

  // A menu open in a card draws its group in full too, so the menu is not clipped at the group's edge.
  const twentieth = within(groups[0] as HTMLElement).getAllByRole('article')[19] as HTMLElement
  fireEvent.click(within(twentieth).getByRole('button', { name: 'Post options' }))
  t.ok(groups[0]?.classList.contains('has-popover'), 'open')
  t.notOk(groups[1]?.classList.contains('has-popover'), 'only its own group')
  fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' })
  t.notOk(groups[0]?.classList.contains('has-popover'), 'closed')

  // From the last post of the first group, j goes on to the first of the next, and k comes back.
  const cards = [...container.querySelectorAll('main article.post-card')]
  t.equal(cards[20]?.textContent?.includes('Post number 21'), true)
  twentieth.focus()
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'j' })
  t.equal(document.activeElement, cards[20], 'j goes on into the next group')
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'k' })
  t.equal(document.activeElement, twentieth, 'and k back')
})

await t.test('a card is told when its own id is cached again or leaves, and not when other posts arrive', async (t) => {
  const told: string[] = []
  const stop = watchCachedSlot('p1', () => told.push('p1'))
  t.teardown(stop)
  cachePosts([makePost({ _id: 'p2', id: 'p2' }), makePost({ _id: 'p3', id: 'p3' })])
  t.same(told, [], 'other posts')
  cachePosts([makePost({ _id: 'p1', id: 'p1' })])
  t.same(told, ['p1'], 'its post cached')
  uncachePost('p1')
  t.same(told, ['p1', 'p1'], 'its post gone')
  cachePosts([makePost({ _id: 'p1', id: 'p1' })])
  resetPostCache()
  t.same(told, ['p1', 'p1', 'p1', 'p1'], 'and the cache emptied at sign-out')
  stop()
  cachePosts([makePost({ _id: 'p1', id: 'p1' })])
  t.equal(told.length, 4, 'not once it stopped watching')
})

await t.test('at each tick of the clock only the groups on screen draw their times again', async (t) => {
  // The clock's interval and the time, in the test's hands.
  const ticks: (() => void)[] = []
  const realSetInterval = globalThis.setInterval
  const realNow = Date.now
  let clock = realNow()
  globalThis.setInterval = ((tick: () => void) => {
    ticks.push(tick)
    return 0
  }) as unknown as typeof setInterval
  Date.now = () => clock
  t.teardown(() => {
    globalThis.setInterval = realSetInterval
    Date.now = realNow
  })

  const minuteAgo = new Date(clock - 90_000).toISOString()
  const container = await exploreWith(
    t,
    Array.from({ length: 25 }, (_, i) =>
      makePost({ _id: `t${i + 1}`, id: `t${i + 1}`, createdAt: minuteAgo, username: 'guest' }),
    ),
  )
  const [first, second] = [...container.querySelectorAll<HTMLElement>('.post-list > .post-chunk')]
  const times = (group: HTMLElement | undefined) =>
    [...(group?.querySelectorAll('.post-time') ?? [])].map((time) => time.textContent)
  t.equal(times(second)[0], '1m')

  // The browser tells a group it skips it, off screen.
  await act(async () => {
    second?.dispatchEvent(Object.assign(new window.Event('contentvisibilityautostatechange'), { skipped: true }))
  })
  clock += 60 * 60_000
  await act(async () => ticks.forEach((tick) => tick()))
  t.ok(
    times(first).every((time) => time === '1h'),
    'the group on screen follows the clock',
  )
  t.ok(
    times(second).every((time) => time === '1m'),
    'the group skipped waits',
  )

  await act(async () => {
    second?.dispatchEvent(Object.assign(new window.Event('contentvisibilityautostatechange'), { skipped: false }))
  })
  t.ok(
    times(second).every((time) => time === '1h'),
    'and catches up once on screen again',
  )
})
