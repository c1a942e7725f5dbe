import 'global-jsdom/register'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import { PostItem } from '../../client/pages/post-item.js'
import { ToastHost } from '../../client/pages/toast-host.js'
import { postCache } from '../../client/state/post-cache.js'
import { makePost, makeUser, renderAt, resetAll, signInAs, until } from './helpers.js'

/** Share: the phone's share sheet when the browser has one, the clipboard otherwise. */
type ShareData = { url?: string; title?: string }
const copied: string[] = []
const shared: ShareData[] = []

function withShareSheet(share: ((data: ShareData) => Promise<void>) | undefined): void {
  Object.defineProperty(navigator, 'share', { configurable: true, writable: true, value: share })
}

t.beforeEach(() => {
  resetAll()
  copied.length = 0
  shared.length = 0
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void copied.push(text) },
  })
})
t.afterEach(() => {
  cleanup()
  resetAll()
  withShareSheet(undefined)
})

function renderPost() {
  signInAs(makeUser({ username: 'guest' }))
  const post = makePost({ _id: 'p1', id: 'p1', username: 'maya', firstName: 'Maya', lastName: 'Lin' })
  postCache.byId[post._id] = post
  renderAt(
    '/',
    <>
      <PostItem postId={post._id} />
      <ToastHost />
    </>,
  )
}

await t.test("with a share sheet, Share hands it the post's link and copies nothing", async (t) => {
  withShareSheet(async (data) => void shared.push(data))
  renderPost()
  fireEvent.click(screen.getByRole('button', { name: 'Share' }))
  await until(() => shared.length === 1)
  t.same(shared, [{ url: 'http://localhost:3000/post-detail/p1', title: 'Maya Lin on Chirp' }])
  await new Promise((resolve) => setTimeout(resolve, 0))
  t.same(copied, [], 'nothing copied')
  t.equal(screen.queryByText('Link successfully copied'), null, 'the sheet itself is the feedback')
})

await t.test('closing the share sheet does nothing more', async (t) => {
  let closed = false
  withShareSheet(async () => {
    closed = true
    throw new DOMException('Share canceled', 'AbortError')
  })
  renderPost()
  fireEvent.click(screen.getByRole('button', { name: 'Share' }))
  await until(() => closed)
  await new Promise((resolve) => setTimeout(resolve, 0))
  t.same(copied, [])
  t.equal(screen.queryByRole('status'), null, 'no toast')
})

await t.test('a share sheet that refuses falls back to copying the link', async (t) => {
  withShareSheet(async () => {
    throw new DOMException('Must be handling a user gesture', 'NotAllowedError')
  })
  renderPost()
  fireEvent.click(screen.getByRole('button', { name: 'Share' }))
  t.ok(await screen.findByText('Link successfully copied'))
  t.same(copied, ['http://localhost:3000/post-detail/p1'])
})

await t.test('without a share sheet, Share says it copies, and does', async (t) => {
  renderPost()
  fireEvent.click(screen.getByRole('button', { name: 'Share: copy link' }))
  t.ok(await screen.findByText('Link successfully copied'))
  t.same(copied, ['http://localhost:3000/post-detail/p1'])
  t.same(shared, [])
})
