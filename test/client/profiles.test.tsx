import './dom.js'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import t from 'tap'
import { App } from '../../client/app.js'
import { ImageCropper } from '../../client/components/image-cropper.js'
import { cropArea } from '../../client/lib/crop.js'
import { PRESET_AVATARS } from '../../client/lib/avatars.js'
import { createPost, deletePost } from '../../client/state/posts.js'
import { signup } from '../../client/state/session.js'
import { defaultAvatarOf } from '../../common/avatars.js'
import { makePost, makeUser, ok, renderAt, resetAll, signInAs, stubApi } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const noop = () => {}

/** Renders the cropper over an image of the given size, as if it had loaded. */
function cropper(width: number, height: number, aspect = 1) {
  const crops: ReturnType<typeof cropArea>[] = []
  render(
    <ImageCropper src="blob:x" aspect={aspect} what="avatar" onCancel={noop} onCrop={(area) => crops.push(area)} />,
  )
  const frame = screen.getByRole('group', { name: 'Crop the avatar' })
  const image = frame.querySelector('img') as HTMLImageElement
  Object.defineProperty(image, 'naturalWidth', { value: width })
  Object.defineProperty(image, 'naturalHeight', { value: height })
  fireEvent.load(image)
  return { frame, image, crops }
}

await t.test('the cropper: arrow keys move the image within the frame, the slider zooms', async (t) => {
  const { frame, image, crops } = cropper(600, 300)
  // A 600×300 image covers a 300×300 frame at its own size: 300 high.
  t.equal(image.style.width, '600px', 'scaled to cover the frame')
  t.equal(image.style.transform, 'translate(-150px, 0px)', 'centred')
  fireEvent.keyDown(frame, { key: 'ArrowLeft' })
  t.equal(image.style.transform, 'translate(-160px, 0px)', 'ArrowLeft moves it 10 px left')
  fireEvent.keyDown(frame, { key: 'ArrowRight', shiftKey: true })
  t.equal(image.style.transform, 'translate(-110px, 0px)', 'Shift moves it 50 px')
  fireEvent.keyDown(frame, { key: 'ArrowDown' })
  t.equal(image.style.transform, 'translate(-110px, 0px)', 'never so far that the frame shows a gap')
  for (let i = 0; i < 40; i++) fireEvent.keyDown(frame, { key: 'ArrowRight' })
  t.equal(image.style.transform, 'translate(0px, 0px)', 'stops at the edge')
  fireEvent.change(screen.getByLabelText('Zoom'), { target: { value: '2' } })
  t.equal(image.style.width, '1200px', 'zoomed twice as large')
  fireEvent.keyDown(frame, { key: '-' })
  t.equal(image.style.width, '1050px', '- zooms out a step')
  fireEvent.click(screen.getByRole('button', { name: 'Apply' }))
  t.equal(crops.length, 1)
  const [area] = crops
  t.equal(Math.round(area?.width ?? 0), Math.round(area?.height ?? 0), 'a square of the source')
  t.ok((area?.x ?? -1) >= 0 && (area?.y ?? -1) >= 0, 'inside the image')
})

await t.test('cropArea: what the frame shows, in source pixels', async (t) => {
  const natural = { width: 1000, height: 500 }
  const frame = { width: 300, height: 100 }
  const whole = cropArea({ x: 0, y: 0 }, natural, frame, 1)
  t.strictSame(
    [whole.x, whole.y, whole.width, Math.round(whole.height)],
    [0, 0, 1000, 333],
    'at zoom 1, the image’s whole width',
  )
  const zoomed = cropArea({ x: -300, y: -50 }, natural, frame, 2)
  t.equal(zoomed.width, 500)
  t.equal(zoomed.x, 500)
})

await t.test('a signup gets the preset its username hashes to, not always the first', async (t) => {
  const api = stubApi({
    'POST /api/auth/signup': () => ({
      status: 201,
      body: { createdUser: makeUser({ username: 'zed' }), encodedToken: 'tok' },
    }),
  })
  t.teardown(api.restore)
  await signup({ username: 'zed', password: 'long enough', firstName: 'Zed', lastName: 'Z', email: 'z@example.com' })
  const sent = api.calls.find((call) => call.path === '/api/auth/signup')?.body as { avatarURL: string }
  t.equal(sent.avatarURL, defaultAvatarOf('zed', PRESET_AVATARS))
  const picks = new Set(
    ['ada', 'bo', 'cy', 'dee', 'eve', 'flo', 'gil', 'hu'].map((n) => defaultAvatarOf(n, PRESET_AVATARS)),
  )
  t.ok(picks.size > 2, 'names spread over the presets')
  t.equal(defaultAvatarOf('Zed', PRESET_AVATARS), defaultAvatarOf('zed', PRESET_AVATARS), 'case aside')
})

await t.test('a profile’s tabs: Posts, Media and Likes, each its own list, with the arrow keys', async (t) => {
  const me = makeUser({ username: 'guest' })
  const maya = makeUser({ username: 'maya', firstName: 'Maya', lastName: 'Lin', _id: 'id-maya', postCount: 2 })
  signInAs(me)
  const api = stubApi({
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/users/guest': () => ok({ user: me }),
    'GET /api/users/maya': () => ok({ user: maya }),
    'GET /api/posts/user/maya': (request) =>
      ok({
        posts:
          request.query.get('filter') === 'media'
            ? [makePost({ _id: 'm1', content: 'A photo of the sea', mediaUrl: '/media/a.png' })]
            : [makePost({ _id: 'p1', content: 'Maya writes' }), makePost({ _id: 'm1', content: 'A photo of the sea' })],
        nextCursor: null,
      }),
    'GET /api/users/maya/likes': () =>
      ok({ posts: [makePost({ _id: 'l1', username: 'theo', content: 'Theo wrote this' })], nextCursor: null }),
  })
  t.teardown(api.restore)
  renderAt('/profile/maya', <App />)
  await screen.findByText('Maya writes')
  t.ok(screen.getByText('2'), 'the true count')
  const tabs = screen.getByRole('tablist', { name: 'Posts of the profile' })
  t.strictSame(
    within(tabs)
      .getAllByRole('tab')
      .map((tab) => tab.textContent),
    ['Posts', 'Media', 'Likes'],
  )
  fireEvent.click(within(tabs).getByRole('tab', { name: 'Media' }))
  await screen.findByText('A photo of the sea')
  t.equal(screen.queryByText('Maya writes'), null, 'only the posts with an image')
  t.equal(api.calls.find((c) => c.query.get('filter') === 'media')?.query.get('compact'), '1', 'compact, as every list')
  fireEvent.keyDown(tabs, { key: 'ArrowRight' })
  await screen.findByText('Theo wrote this')
  t.equal(within(tabs).getByRole('tab', { name: 'Likes' }).getAttribute('aria-selected'), 'true')
  t.ok(screen.getByRole('tabpanel', { name: 'Likes' }))
})

await t.test('my own profile’s count follows the posts I make and delete here', async (t) => {
  const me = makeUser({ username: 'guest', postCount: 2 })
  signInAs(me)
  const made = makePost({ _id: 'new1', username: 'guest', content: 'Fresh' })
  const api = stubApi({
    'GET /api/users/suggestions': () => ok({ users: [] }),
    'GET /api/users/guest': () => ok({ user: me }),
    'GET /api/posts/user/guest': () => ok({ posts: [], nextCursor: null }),
    'POST /api/posts': () => ({ status: 201, body: { post: made } }),
    'DELETE /api/posts/new1': () => ({ status: 201, body: {} }),
  })
  t.teardown(api.restore)
  renderAt('/profile/guest', <App />)
  await screen.findByText('2')
  await createPost({ content: 'Fresh', media: [] })
  await screen.findByText('3')
  await deletePost('new1')
  await screen.findByText('2')
  t.pass('the count went up and down')
})
