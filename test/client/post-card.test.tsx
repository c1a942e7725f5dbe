import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import t from 'tap'
import { PostCard } from '../../client/components/post-card.js'
import { PostItem } from '../../client/pages/post-item.js'
import { ToastHost } from '../../client/pages/toast-host.js'
import { postCache } from '../../client/state/post-cache.js'
import {
  cardProps,
  fail,
  makeComment,
  makePost,
  makeUser,
  ok,
  renderAt,
  resetAll,
  signInAs,
  stubApi,
  summary,
  until,
} from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

await t.test('a post by someone else has no owner menu', async (t) => {
  renderAt('/', <PostCard {...cardProps()} />)
  t.ok(screen.getByText('Hello from Maya'))
  t.ok(screen.getByText('@maya'))
  t.equal(screen.queryByRole('button', { name: 'Post options' }), null)
})

await t.test("the owner's three-dots menu offers Edit Post and Delete Post", async (t) => {
  const chosen: string[] = []
  renderAt(
    '/',
    <PostCard
      {...cardProps({ me: 'maya', onEdit: () => chosen.push('edit'), onDelete: () => chosen.push('delete') })}
    />,
  )
  const button = screen.getByRole('button', { name: 'Post options' })
  t.equal(button.getAttribute('aria-expanded'), 'false')
  fireEvent.click(button)
  const menu = screen.getByRole('menu')
  const items = within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent)
  t.same(items, ['Edit Post', 'Delete Post'])
  t.equal(document.activeElement, within(menu).getByRole('menuitem', { name: 'Edit Post' }), 'focus on the first item')
  fireEvent.keyDown(menu, { key: 'ArrowDown' })
  t.equal(document.activeElement, within(menu).getByRole('menuitem', { name: 'Delete Post' }), 'arrows move')
  fireEvent.keyDown(menu, { key: 'Escape' })
  t.equal(screen.queryByRole('menu'), null, 'Escape closes')
  t.equal(document.activeElement, button, 'and focus returns to the button')
  fireEvent.click(button)
  fireEvent.click(screen.getByRole('menuitem', { name: 'Delete Post' }))
  t.same(chosen, ['delete'])
})

await t.test(
  'a click on the image shows it large in a lightbox that Escape closes; names link to the profile',
  async (t) => {
    const post = makePost({ _id: 'p9', id: 'p9', mediaUrl: '/media/x.png', type: 'image' })
    signInAs(makeUser({ username: 'guest' }))
    postCache.byId[post._id] = post
    const { location } = renderAt('/', <PostItem postId="p9" />)
    const image = screen.getByRole('link', { name: 'Image posted by Maya Lin' })
    t.equal(image.getAttribute('href'), '/media/x.png', 'a real link to the file, for a new tab')
    fireEvent.click(image)
    const lightbox = screen.getByRole('dialog', { name: 'Image' })
    t.equal(within(lightbox).getByRole('img').getAttribute('src'), '/media/x.png')
    t.same(location.history, ['/'], 'the feed stays where it was')
    fireEvent.keyDown(lightbox, { key: 'Escape' })
    t.equal(screen.queryByRole('dialog'), null, 'Escape closes it')
    t.equal(screen.getByRole('link', { name: "Maya Lin's profile" }).getAttribute('href'), '/profile/maya')
  },
)

await t.test('a click on the card opens its page; its buttons, links and a text selection do not', async (t) => {
  const post = makePost({ _id: 'p7', id: 'p7', content: 'Just words, no image' })
  const liked: string[] = []
  const { location } = renderAt('/', <PostCard {...cardProps({ post, onToggleLike: () => liked.push('like') })} />)
  const card = screen.getByRole('article')
  fireEvent.click(screen.getByRole('button', { name: 'Like, 0 likes' }))
  t.same(liked, ['like'], 'the button did its own job')
  t.same(location.history, ['/'], 'and did not open the post')

  const text = screen.getByText('Just words, no image')
  const range = document.createRange()
  range.selectNodeContents(text)
  window.getSelection()?.removeAllRanges()
  window.getSelection()?.addRange(range)
  fireEvent.click(text)
  t.same(location.history, ['/'], 'selecting text is not a click on the post')
  window.getSelection()?.removeAllRanges()

  fireEvent.click(text)
  t.same(location.history, ['/', '/post-detail/p7'], 'a click on the text opens the post')
  fireEvent.click(card)
  t.equal(location.history?.at(-1), '/post-detail/p7', 'so does a click on the card itself')
})

await t.test('the timestamp is a link to the post with the full date on hover', async (t) => {
  renderAt(
    '/',
    <PostCard {...cardProps({ post: makePost({ _id: 'p8', id: 'p8', createdAt: '2026-01-10T12:00:00.000Z' }) })} />,
  )
  const time = screen.getByRole('article').querySelector('time')
  t.equal(time?.getAttribute('datetime'), '2026-01-10T12:00:00.000Z')
  const link = time?.closest('a')
  t.equal(link?.getAttribute('href'), '/post-detail/p8')
  t.match(link?.getAttribute('title') ?? '', /^\d{1,2}:\d{2} [AP]M · Jan (9|10|11), 2026$/)
})

function renderItem(post = makePost({ _id: 'p1', id: 'p1', username: 'maya' })) {
  const me = makeUser({ username: 'guest' })
  signInAs(me)
  postCache.byId[post._id] = post
  renderAt(
    '/',
    <>
      <PostItem postId={post._id} />
      <ToastHost />
    </>,
  )
  return { me, post }
}

await t.test('like is optimistic and confirmed by the server', async (t) => {
  const { me } = renderItem()
  let release: () => void = () => {}
  const api = stubApi({
    'POST /api/posts/like/p1': () =>
      new Promise((resolve) => {
        release = () =>
          resolve(
            ok({
              post: makePost({ _id: 'p1', id: 'p1', likes: { likeCount: 1, likedBy: [summary(me)], dislikedBy: [] } }),
            }),
          )
      }),
  })
  t.teardown(api.restore)
  fireEvent.click(screen.getByRole('button', { name: 'Like, 0 likes' }))
  const unlike = await screen.findByRole('button', { name: 'Unlike, 1 like' })
  t.equal(unlike.getAttribute('aria-pressed'), 'true', 'shown as liked before the server answers')
  await until(() => api.calls.length === 1)
  t.equal(api.calls[0]?.headers.get('prefer'), 'return=minimal')
  t.equal(api.calls[0]?.headers.get('authorization'), 'Bearer test-token')
  release()
  await until(() => screen.queryByRole('button', { name: 'Unlike, 1 like' }) !== null)
})

await t.test(
  'unlike sends dislike; a refusal saying there is no like leaves the button where the server is',
  async (t) => {
    const me = makeUser({ username: 'guest' })
    const post = makePost({ _id: 'p1', id: 'p1', likes: { likeCount: 1, likedBy: [summary(me)], dislikedBy: [] } })
    renderItem(post)
    let release: () => void = () => {}
    const api = stubApi({
      'POST /api/posts/dislike/p1': () =>
        new Promise((resolve) => {
          release = () => resolve(fail(400, 'Cannot decrement like less than 0.'))
        }),
      'GET /api/posts/p1': () => ok({ post: { ...post, likes: { likeCount: 0, likedBy: [], dislikedBy: [] } } }),
    })
    t.teardown(api.restore)
    fireEvent.click(screen.getByRole('button', { name: 'Unlike, 1 like' }))
    t.ok(await screen.findByRole('button', { name: 'Like, 0 likes' }), 'optimistic unlike')
    await until(() => api.calls.length === 1)
    release()
    await until(() => api.calls.length === 2)
    t.equal(api.calls[0]?.path, '/api/posts/dislike/p1')
    t.equal(api.calls[1]?.path, '/api/posts/p1', 'the count is read again')
    t.ok(screen.getByRole('button', { name: 'Like, 0 likes' }), 'the server holds no like, and neither does the button')
    t.equal(screen.queryByRole('alert'), null, 'nothing went wrong to say')
  },
)

await t.test('a like that fails rolls back and says why, with a retry', async (t) => {
  renderItem(makePost({ _id: 'p1', id: 'p1' }))
  const api = stubApi({ 'POST /api/posts/like/p1': () => fail(500, 'Internal server error') })
  t.teardown(api.restore)
  fireEvent.click(screen.getByRole('button', { name: 'Like, 0 likes' }))
  await screen.findByText('Something went wrong on our side. Please try again.')
  t.ok(screen.getByRole('button', { name: 'Like, 0 likes' }), 'rolled back')
  t.ok(screen.getByRole('button', { name: 'Try again' }), 'a failure is worth retrying')
})

await t.test('share copies the post link and says so', async (t) => {
  renderItem()
  const copied: string[] = []
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void copied.push(text) },
  })
  fireEvent.click(screen.getByRole('button', { name: 'Share: copy link' }))
  const toast = await screen.findByText('Link successfully copied')
  t.ok(toast)
  t.same(copied, ['http://localhost:3000/post-detail/p1'])
})

await t.test('the comment count toggles the comments, read when opened; Reply is disabled when empty', async (t) => {
  const other = makeUser({ username: 'theo', firstName: 'Theo', lastName: 'Park' })
  const at = (date: string) => ({ createdAt: date, updatedAt: date })
  const written = [
    makeComment('Older comment', { ...summary(other), _id: 'c1', ...at('2026-01-01T00:00:00.000Z') }),
    makeComment('My newer comment', { ...summary(makeUser()), _id: 'c2', ...at('2026-01-02T00:00:00.000Z') }),
  ]
  const api = stubApi({
    'GET /api/comments/p1': () => ok({ comments: written, nextCursor: null }),
    'POST /api/comments/edit/p1/c2': (req) => {
      const post = { ...makePost({ _id: 'p1', id: 'p1' }), comments: structuredClone(written), commentCount: 2 }
      post.comments[1]!.text = (req.body as { commentData: { text: string } }).commentData.text
      return ok({ post })
    },
  })
  t.teardown(api.restore)
  // As a list sends it: compact, its comments counted but not there.
  renderItem(makePost({ _id: 'p1', id: 'p1', comments: [], commentCount: 2 }))
  const toggle = screen.getByRole('button', { name: 'Comments, 2 comments' })
  t.equal(screen.queryByPlaceholderText('Post your reply'), null, 'closed at first')
  t.notOk(
    api.calls.some((c) => c.path === '/api/comments/p1'),
    'not read before they are opened',
  )
  fireEvent.click(toggle)
  await screen.findByText('Older comment')
  t.equal(api.calls.find((c) => c.path === '/api/comments/p1')?.query.get('limit'), '100', 'read a page at a time')
  const reply = screen.getByPlaceholderText('Post your reply')
  const send = screen.getByRole('button', { name: 'Reply' }) as HTMLButtonElement
  t.ok(send.disabled)
  fireEvent.change(reply, { target: { value: 'Nice one' } })
  t.notOk(send.disabled)
  const texts = screen.getAllByRole('listitem').map((li) => li.querySelector('.comment-text')?.textContent)
  t.same(texts, ['Older comment', 'My newer comment'], 'oldest first, as a thread reads')
  const [theirs, mine] = screen.getAllByRole('button', { name: 'Comment options' })
  if (!mine || !theirs) throw new Error('each comment has its menu')
  fireEvent.click(theirs)
  t.same(
    screen.getAllByRole('menuitem').map((item) => item.textContent),
    ['Report comment', 'Mute @theo', 'Block @theo'],
    "someone else's comment can only be reported, muted or blocked",
  )
  fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' })

  fireEvent.click(mine)
  fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }))
  fireEvent.change(screen.getByLabelText('Edit comment'), { target: { value: 'Edited comment' } })
  fireEvent.click(screen.getByRole('button', { name: 'Update' }))
  await screen.findByText('Edited comment')
  t.same(api.calls.find((c) => c.method === 'POST')?.body, { commentData: { text: 'Edited comment' } })
  fireEvent.click(toggle)
  t.equal(screen.queryByPlaceholderText('Post your reply'), null, 'closes again')
})

await t.test(
  "an image shows its author's description, its size, and only the first of a list loads at once",
  async (t) => {
    const described = makePost({
      mediaUrl: '/media/a.png',
      type: 'image',
      mediaAlt: 'Two herons at dawn',
      mediaWidth: 1200,
      mediaHeight: 800,
    })
    renderAt('/', <PostCard {...cardProps({ post: described, eagerMedia: true })} />)
    const image = screen.getByAltText('Two herons at dawn')
    t.equal(image.getAttribute('width'), '1200')
    t.equal(image.getAttribute('height'), '800')
    t.equal(image.getAttribute('loading'), 'eager')
    cleanup()
    renderAt('/', <PostCard {...cardProps({ post: makePost({ mediaUrl: '/media/b.png', type: 'image' }) })} />)
    const plain = screen.getByAltText('Image posted by Maya Lin')
    t.equal(plain.getAttribute('loading'), 'lazy')
    t.equal(plain.getAttribute('width'), null, 'no size when the post does not know it')
  },
)
