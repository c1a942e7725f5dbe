import './dom.js'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import t from 'tap'
import { PostForm, type PostDraft } from '../../client/components/post-form.js'
import { ScheduledPage } from '../../client/pages/scheduled-page.js'
import { ToastHost } from '../../client/pages/toast-host.js'
import { makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

await t.test('the composer schedules a post: Schedule asks for a date and time and sends it', async (t) => {
  const sent: PostDraft[] = []
  render(
    <PostForm
      allowSchedule
      resetAfterSubmit
      onSubmit={async (draft) => (sent.push(draft), true)}
      onUpload={async () => null}
      onFileError={() => {}}
    />,
  )
  fireEvent.change(screen.getByRole('textbox', { name: 'Post text' }), { target: { value: 'later on' } })
  const toggle = screen.getByRole('button', { name: 'Schedule', pressed: false })
  fireEvent.click(toggle)
  t.equal(toggle.getAttribute('aria-pressed'), 'true', 'the option is on')
  const input = screen.getByLabelText(/Publish at/)
  const submit = screen
    .getAllByRole('button', { name: 'Schedule' })
    .find((button) => button.getAttribute('type') === 'submit')
  t.ok(submit?.hasAttribute('disabled'), 'nothing is sent before a time is chosen')
  fireEvent.change(input, { target: { value: '2030-05-06T07:08' } })
  fireEvent.click(submit as HTMLElement)
  await until(() => sent.length === 1)
  t.equal(sent[0]?.content, 'later on')
  t.equal(sent[0]?.scheduledAt, new Date('2030-05-06T07:08').toISOString(), 'the local time, sent as an instant')
  await until(() => screen.queryByLabelText(/Publish at/) === null)
  t.pass('the form starts over without the schedule')
})

await t.test('without Schedule on, a post carries no time', async (t) => {
  const sent: PostDraft[] = []
  render(
    <PostForm
      allowSchedule
      onSubmit={async (draft) => (sent.push(draft), true)}
      onUpload={async () => null}
      onFileError={() => {}}
    />,
  )
  fireEvent.change(screen.getByRole('textbox', { name: 'Post text' }), { target: { value: 'now' } })
  fireEvent.click(screen.getByRole('button', { name: 'Post' }))
  await until(() => sent.length === 1)
  t.notOk('scheduledAt' in (sent[0] ?? {}))
})

const ITEMS = [
  {
    id: 's1',
    scheduled_at: '2030-01-01T10:00:00.000Z',
    params: { text: 'first to go', spoiler_text: null, poll: { options: ['a', 'b'] }, media_ids: null },
  },
  {
    id: 's2',
    scheduled_at: '2030-02-01T10:00:00.000Z',
    params: { text: 'second to go', spoiler_text: 'cw', poll: null, media_ids: ['m1'] },
  },
]

await t.test('the Scheduled posts screen lists them, moves one and cancels one', async (t) => {
  let listed = ITEMS
  const api = stubApi({
    'GET /api/v1/scheduled_statuses': () => ok(listed),
    'PUT /api/v1/scheduled_statuses/s1': (request) => {
      const at = (request.body as { scheduled_at: string }).scheduled_at
      listed = [
        { ...ITEMS[1]!, id: 's2' },
        { ...ITEMS[0]!, scheduled_at: at },
      ]
      return ok({ ...ITEMS[0], scheduled_at: at })
    },
    'DELETE /api/v1/scheduled_statuses/s2': () => ok({}),
  })
  signInAs(makeUser({ username: 'guest' }))
  renderAt(
    '/scheduled',
    <>
      <ScheduledPage />
      <ToastHost />
    </>,
  )
  await until(() => screen.queryAllByRole('listitem').length === 2)
  const [first, second] = screen.getAllByRole('listitem')
  t.match(first?.textContent, /first to go.*Poll: a \/ b/)
  t.match(second?.textContent, /Content warning: cw.*second to go.*1 image/)
  fireEvent.change(within(first as HTMLElement).getByLabelText('New time'), { target: { value: '2030-03-01T10:00' } })
  fireEvent.click(within(first as HTMLElement).getByRole('button', { name: 'Reschedule' }))
  await until(() => api.calls.some((call) => call.method === 'PUT'))
  const put = api.calls.find((call) => call.method === 'PUT')
  t.strictSame(put?.body, { scheduled_at: new Date('2030-03-01T10:00').toISOString() }, 'the new time is sent')
  t.match(put?.headers.get('authorization'), /test-token/, "Chirp's own session token goes with it")
  await until(() => screen.getAllByRole('listitem')[0]?.textContent?.includes('second to go') === true)
  const row = screen.getAllByRole('listitem').find((item) => item.textContent?.includes('second to go'))
  fireEvent.click(within(row as HTMLElement).getByRole('button', { name: 'Cancel post' }))
  const confirm = screen.getByRole('alertdialog', { name: 'Cancel this post?' })
  fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel post' }))
  await until(() => screen.queryAllByRole('listitem').length === 1)
  t.ok(
    api.calls.some((call) => call.method === 'DELETE' && call.path === '/api/v1/scheduled_statuses/s2'),
    'cancelled',
  )
})

await t.test('with none, the screen says how to schedule one', async (t) => {
  stubApi({ 'GET /api/v1/scheduled_statuses': () => ok([]) })
  signInAs(makeUser({ username: 'guest' }))
  renderAt('/scheduled', <ScheduledPage />)
  await until(() => screen.queryByText(/No scheduled posts/) !== null)
  t.pass('an empty list is explained')
})
