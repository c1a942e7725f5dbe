import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { PostCard } from '../../client/components/post-card.js'
import { PostItem } from '../../client/pages/post-item.js'
import { postCache } from '../../client/state/post-cache.js'
import { session } from '../../client/state/session.js'
import { cardProps, makePost, makeUser, renderAt, resetAll, settingsApi, signInAs, until } from './helpers.js'

/** Posts with up to four images (DECISIONS §15): the ALT badge, the viewer with the description, the reminder's setting. */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const four = makePost({
  _id: 'p4',
  id: 'p4',
  mediaUrl: '/media/a.png',
  mediaAlt: 'A heron',
  type: 'image',
  media: [
    { url: '/media/a.png', alt: 'A heron', width: 800, height: 600 },
    { url: '/media/b.png', alt: '' },
    { url: '/media/c.png', alt: 'A kite over the dunes' },
    { url: '/media/d.png', alt: '' },
  ],
})

await t.test(
  'a post shows its four images in order, each named by its description, ALT on the described',
  async (t) => {
    renderAt('/', <PostCard {...cardProps({ post: four })} />)
    const article = screen.getByRole('article')
    t.strictSame(
      within(article)
        .getAllByRole('img')
        .filter((img) => img.getAttribute('src')?.startsWith('/media/'))
        .map((img) => img.getAttribute('alt')),
      ['A heron', 'Image 2 of 4 posted by Maya Lin', 'A kite over the dunes', 'Image 4 of 4 posted by Maya Lin'],
    )
    const links = article.querySelectorAll('a.post-media')
    t.strictSame(
      [...links].map((link) => link.querySelector('.alt-badge')?.textContent ?? null),
      ['ALT', null, 'ALT', null],
      'the badge only where there is a description',
    )
    t.equal(links[0]?.querySelector('img')?.getAttribute('width'), '800', 'a known size is kept')
    t.ok(article.querySelector('.post-media-grid.count-4'), 'laid out as a grid of four')
  },
)

await t.test('the viewer shows each image with its description, and moves between them', async (t) => {
  signInAs(makeUser({ username: 'guest' }))
  postCache.byId.p4 = four
  renderAt('/', <PostItem postId="p4" />)
  const third = screen.getByRole('img', { name: 'A kite over the dunes' }).closest('a')
  if (!third) throw new Error('the image is a link')
  fireEvent.click(third)
  const viewer = await screen.findByRole('dialog', { name: 'Image 3 of 4' })
  t.ok(within(viewer).getByText('A kite over the dunes', { selector: 'p' }), 'the description, written out')
  fireEvent.click(within(viewer).getByRole('button', { name: 'Next image' }))
  const fourth = screen.getByRole('dialog', { name: 'Image 4 of 4' })
  t.equal(within(fourth).queryByText('ALT'), null, 'no description to show for the fourth')
  t.ok((within(fourth).getByRole('button', { name: 'Next image' }) as HTMLButtonElement).disabled, 'the last')
  fireEvent.click(within(fourth).getByRole('button', { name: 'Previous image' }))
  fireEvent.click(
    within(screen.getByRole('dialog', { name: 'Image 3 of 4' })).getByRole('button', { name: 'Previous image' }),
  )
  t.ok(
    within(screen.getByRole('dialog', { name: 'Image 2 of 4' })).getByRole('img', {
      name: 'Image 2 of 4 posted by Maya Lin',
    }),
  )
})

await t.test('Settings turns the alt-text reminder off and on, saved with the account', async (t) => {
  const me = makeUser({ username: 'ada', email: 'ada@example.com', altTextReminder: true })
  signInAs(me)
  const api = settingsApi(me)
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  const section = (await screen.findByRole('heading', { name: 'Composing' })).closest('section')
  if (!section) throw new Error('no section')
  const box = within(section).getByRole('checkbox', { name: 'Remind me to describe images' }) as HTMLInputElement
  t.ok(box.checked, 'on by default')
  fireEvent.click(box)
  await until(() => session.user?.altTextReminder === false)
  t.same(api.calls.filter((c) => c.path === '/api/users/edit').at(-1)?.body, { userData: { altTextReminder: false } })
  t.ok(await screen.findByText('The reminder is off'))
  await until(() => !box.disabled)
  t.notOk(box.checked)
  fireEvent.click(box)
  await until(() => session.user?.altTextReminder === true)
  t.ok(box.checked)
})
