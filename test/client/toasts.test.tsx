import './dom.js'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import { ToastHost } from '../../client/pages/toast-host.js'
import { dismissToast, MAX_TOASTS, showError, showToast, toasts } from '../../client/state/toasts.js'
import { FetchError } from 'ofetch'
import { errorMessage, http } from '../../client/api/http.js'
import { renderAt, resetAll, stubApi, until } from './helpers.js'
import { expectedCode } from '../helpers/error-codes.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

await t.test('at most 20 toasts are kept, the oldest dropped first', async (t) => {
  for (let i = 1; i <= 25; i++) showToast(`toast ${i}`)
  t.equal(MAX_TOASTS, 20)
  t.equal(toasts.items.length, 20)
  t.equal(toasts.items[0]?.text, 'toast 6')
  t.equal(toasts.items[19]?.text, 'toast 25')
})

await t.test('a dismissed toast fades, then is removed 1 second later', async (t) => {
  renderAt('/', <ToastHost />)
  showToast('Link successfully copied', 'success')
  const toast = await screen.findByText('Link successfully copied')
  fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }))
  await until(() => toast.parentElement?.classList.contains('is-leaving') === true)
  const dismissedAt = Date.now()
  t.ok(screen.getByText('Link successfully copied'), 'still there while it fades')
  await until(() => screen.queryByText('Link successfully copied') === null)
  t.ok(Date.now() - dismissedAt >= 900, 'removed about a second after dismissal')
})

await t.test('a failed call shows the server message; non-server errors get a readable one', async (t) => {
  showError(new Error('Network down'))
  t.equal(toasts.items[0]?.text, 'Network down')
  t.equal(toasts.items[0]?.kind, 'error')
  dismissToast(toasts.items[0]!.id)
  t.equal(toasts.items[0]?.dismissed, true)
})

await t.test('server words become plain words', async (t) => {
  const failure = async (status: number, errors: string[]) => {
    const api = stubApi({ 'GET /api/x': () => ({ status, body: { errors, code: expectedCode(errors[0] ?? '') } }) })
    try {
      await http('/x')
      return ''
    } catch (error) {
      return errorMessage(error)
    } finally {
      api.restore()
    }
  }
  t.equal(
    await failure(422, ['Unprocessable Entity. Username Already Exists.']),
    'That username is taken. Try another one.',
  )
  t.equal(
    await failure(400, ['firstName must NOT have more than 50 characters']),
    'First name can be at most 50 characters long.',
  )
  t.equal(
    await failure(400, ['body/postData/content must NOT have more than 500 characters']),
    'A post can be at most 500 characters long.',
  )
  t.equal(await failure(400, ['email must match format "email"']), 'Email must be a valid email address.')
  t.equal(await failure(500, ['Internal server error']), 'Something went wrong on our side. Please try again.')
  t.equal(
    await failure(503, ['database unreachable: ECONNREFUSED']),
    'Something went wrong on our side. Please try again.',
    'no internals',
  )
  t.equal(await failure(400, ['A post needs content or media']), 'A post needs content or media', 'plain already')
})

await t.test('a failure that may pass offers Try again, which runs the action once more', async (t) => {
  renderAt('/', <ToastHost />)
  let tries = 0
  const api = stubApi({ 'POST /api/x': () => ({ status: 503, body: { errors: ['Internal server error'] } }) })
  t.teardown(api.restore)
  const attempt = async () => {
    tries += 1
    await http('/x', { method: 'POST' }).catch((error: unknown) => showError(error, () => void attempt()))
  }
  await attempt()
  fireEvent.click(await screen.findByRole('button', { name: 'Try again' }))
  await until(() => tries === 2)
  t.equal(api.calls.length, 2, 'the call went again')
  showError(new FetchError('refused'), () => {})
  t.equal(toasts.items.at(-1)?.text, "Can't reach Chirp. Check your connection and try again.")
  t.ok(toasts.items.at(-1)?.action, 'no connection is worth a retry')
})

await t.test('a description of invisible characters is refused in words about the form', async (t) => {
  const api = stubApi({
    'POST /api/posts': () => ({ status: 400, body: { errors: ['mediaAlt must contain visible text'] } }),
  })
  t.teardown(api.restore)
  const message = await http('/posts', { method: 'POST' }).then(
    () => '',
    (error: unknown) => errorMessage(error),
  )
  t.equal(message, "An image description can't be only spaces or invisible characters.")
})
