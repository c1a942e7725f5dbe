import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import { App } from '../../client/app.js'
import { PostCard } from '../../client/components/post-card.js'
import { session } from '../../client/state/session.js'
import { cardProps, makePost, makeUser, renderAt, resetAll, settingsApi, signInAs, until } from './helpers.js'

/** Quote controls in the client (DECISIONS §15): the Quote item follows the author's choice, set in Settings. */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

/** The Quote item of a post's repost menu, as this reader sees it. */
function quoteItem(post: Parameters<typeof makePost>[0], followsAuthor: boolean, me = 'ada') {
  const chosen: string[] = []
  const props = cardProps({ me, post: makePost(post), followsAuthor, onQuote: () => chosen.push('quote') })
  const view = renderAt('/', <PostCard {...props} />)
  fireEvent.click(screen.getByRole('button', { name: /^Repost, / }))
  const item = screen.getByRole('menuitem', { name: /^Quote/ })
  fireEvent.click(item)
  return { item, chosen, view }
}

await t.test('a post whose author lets nobody quote it offers Quote as unavailable, saying why', async (t) => {
  const { item, chosen, view } = quoteItem({ username: 'maya', quotePolicy: 'nobody' }, true)
  t.equal(item.getAttribute('aria-disabled'), 'true')
  t.match(item.textContent, /This post can't be quoted\./)
  t.same(chosen, [], 'choosing it does nothing')
  t.strictSame(
    (await axe.run(view.container)).violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )
})

await t.test('followers only: a follower may quote, anyone else is told who may', async (t) => {
  const follower = quoteItem({ username: 'maya', quotePolicy: 'followers' }, true)
  t.equal(follower.item.getAttribute('aria-disabled'), null, 'a follower may')
  t.same(follower.chosen, ['quote'])
  cleanup()
  const stranger = quoteItem({ username: 'maya', quotePolicy: 'followers' }, false)
  t.equal(stranger.item.getAttribute('aria-disabled'), 'true', 'a stranger may not')
  t.match(stranger.item.textContent, /Only followers can quote this post\./)
  t.same(stranger.chosen, [])
})

await t.test('the author may always quote their own post, and an open post anyone', async (t) => {
  const mine = quoteItem({ username: 'ada', quotePolicy: 'nobody' }, false)
  t.same(mine.chosen, ['quote'], 'my own')
  cleanup()
  const open = quoteItem({ username: 'maya' }, false)
  t.same(open.chosen, ['quote'], 'an open post')
})

await t.test('Settings: who can quote my posts is saved as it changes, with what it means', async (t) => {
  const me = makeUser({ username: 'ada', email: 'ada@example.com', quotePolicy: 'anyone' })
  signInAs(me)
  const api = settingsApi(me)
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  const section = (await screen.findByRole('heading', { name: 'Audience and followers' })).closest('section')
  if (!section) throw new Error('no section')
  const select = within(section).getByRole('combobox', { name: 'Who can quote my posts' }) as HTMLSelectElement
  const hint = () => document.getElementById(select.getAttribute('aria-describedby') ?? '')?.textContent
  t.equal(select.value, 'anyone')
  t.match(hint(), /Anyone who can see a post of yours can quote it/)
  fireEvent.change(select, { target: { value: 'followers' } })
  await until(() => session.user?.quotePolicy === 'followers')
  t.same(api.calls.filter((c) => c.path === '/api/users/edit').at(-1)?.body, { userData: { quotePolicy: 'followers' } })
  t.ok(await screen.findByText('Who can quote your posts was saved'))
  t.match(hint(), /Only the people who follow you can quote your posts/)
  t.strictSame(
    (await axe.run(section)).violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )
})
