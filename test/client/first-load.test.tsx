import 'global-jsdom/register'
import { readFile } from 'node:fs/promises'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { lazy } from 'react'
import t from 'tap'
import { PostCard, type PostCardProps } from '../../client/components/post-card.js'
import { PostForm } from '../../client/components/post-form.js'
import { useDrawnRange } from '../../client/lib/use-drawn-count.js'
import { AppShell } from '../../client/pages/app-shell.js'
import { cardProps, makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

/** What keeps the first screen fast and still (the Lighthouse leg of npm run bench measures it). */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const noop = () => {}
const card = (overrides: Partial<PostCardProps>) =>
  cardProps({ post: makePost({ mediaUrl: '/media/a.png' }), ...overrides })

await t.test('the first image of a list is fetched eagerly and before the rest', async (t) => {
  renderAt('/', <PostCard {...card({ eagerMedia: true })} />)
  const first = screen.getByRole('img', { name: /Image posted by/ })
  t.equal(first.getAttribute('loading'), 'eager')
  t.equal(first.getAttribute('fetchpriority'), 'high')
  cleanup()
  renderAt('/', <PostCard {...card({})} />)
  const later = screen.getByRole('img', { name: /Image posted by/ })
  t.equal(later.getAttribute('loading'), 'lazy')
  t.equal(later.getAttribute('fetchpriority'), 'auto')
})

await t.test('an image of unknown size has a box before it loads, so the page does not move', async (t) => {
  const css = (await readFile(new URL('../../client/styles/posts.css', import.meta.url), 'utf8')).replace(
    /\/\*[\s\S]*?\*\//g,
    '',
  )
  t.match(css, /\.post-media img:not\(\[width\]\)\s*\{[^}]*aspect-ratio:\s*16\s*\/\s*9/)
  renderAt(
    '/',
    <PostCard {...card({ post: makePost({ mediaUrl: '/media/a.png', mediaWidth: 800, mediaHeight: 600 }) })} />,
  )
  const sized = screen.getByRole('img', { name: /Image posted by/ })
  t.equal(sized.getAttribute('width'), '800', 'a known size is given as attributes instead')
  t.equal(sized.getAttribute('height'), '600')
})

await t.test('an empty composer keeps its styled height, never measured (a layout of the whole page)', async (t) => {
  render(<PostForm onSubmit={async () => true} onUpload={async () => null} onFileError={noop} />)
  const box = screen.getByRole('textbox')
  t.equal(box.style.height, '', 'nothing set on the first render')
  fireEvent.change(box, { target: { value: 'Hello' } })
  t.equal(box.style.height, 'auto', 'text is measured (jsdom lays nothing out, so it stays at auto)')
  fireEvent.change(box, { target: { value: '' } })
  t.equal(box.style.height, '', 'emptied, back to its styled height')
})

await t.test(
  "while a page's code loads, the frame stays on screen with a placeholder where the page goes",
  async (t) => {
    signInAs(makeUser({ username: 'guest' }))
    const api = stubApi({ 'GET /api/users/suggestions': () => ok({ users: [] }) })
    t.teardown(api.restore)
    const Loading = lazy(() => new Promise<never>(() => {}))
    renderAt(
      '/',
      <AppShell>
        <Loading />
      </AppShell>,
    )
    t.ok(screen.getByRole('navigation', { name: 'Main' }), 'the navigation is drawn')
    t.ok(screen.getByText('Loading'), 'and a placeholder saying the page is loading')
  },
)

function Numbers({ total, start }: { total: number; start?: number }) {
  const { from, to } = useDrawnRange(total, start)
  return (
    <ul>
      {Array.from({ length: to - from }, (_, i) => (
        <li key={from + i}>{from + i}</li>
      ))}
    </ul>
  )
}
const drawnNumbers = () => screen.getAllByRole('listitem').map((item) => Number(item.textContent))

await t.test('a long list is drawn a few items at a time, then whole', async (t) => {
  const { rerender } = render(<Numbers total={20} />)
  const first = screen.getAllByRole('listitem').length
  t.ok(first > 0 && first < 20, `the first drawing has the first few items (${first})`)
  await until(() => screen.getAllByRole('listitem').length === 20)
  t.pass('the rest follow, part by part')
  rerender(<Numbers total={5} />)
  t.equal(screen.getAllByRole('listitem').length, 5, 'a shorter list is drawn whole at once')
  rerender(<Numbers total={0} />)
  rerender(<Numbers total={20} />)
  await until(() => screen.getAllByRole('listitem').length === 20)
  t.pass('an emptied list fills again')
})

await t.test('a list the reader comes back to is drawn from their place, then up and down to the whole', async (t) => {
  render(<Numbers total={60} start={50} />)
  const first = drawnNumbers()
  t.ok(first.includes(50), `the item of the place is in the first drawing (${first[0]} to ${first.at(-1)})`)
  t.ok(first.length < 20, 'with only the few around it')
  t.ok(!first.includes(0), 'and not the top of the list')
  let grewBothWays = false
  await until(() => {
    const now = drawnNumbers()
    if ((now[0] ?? 0) < (first[0] ?? 0) && (now.at(-1) ?? 0) > (first.at(-1) ?? 0) && now.length < 300)
      grewBothWays = true
    return now.length === 60
  })
  t.ok(grewBothWays, 'it grew up and down before it was whole')
  t.same(
    drawnNumbers(),
    Array.from({ length: 60 }, (_, i) => i),
    'then the whole list, in order',
  )
})
