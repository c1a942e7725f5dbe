import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import { PostCard } from '../../client/components/post-card.js'
import { cardProps, renderAt, resetAll } from './helpers.js'
import { allRules } from './stylesheets.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

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
