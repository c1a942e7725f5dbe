import 'global-jsdom/register'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import t from 'tap'
import { ToastHost } from '../../client/pages/toast-host.js'
import { dismissToast, MAX_TOASTS, showError, showToast, toasts } from '../../client/state/toasts.js'
import { renderAt, resetAll, until } from './helpers.js'

t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

t.test('at most 20 toasts are kept, the oldest dropped first', async (t) => {
  for (let i = 1; i <= 25; i++) showToast(`toast ${i}`)
  t.equal(MAX_TOASTS, 20)
  t.equal(toasts.items.length, 20)
  t.equal(toasts.items[0]?.text, 'toast 6')
  t.equal(toasts.items[19]?.text, 'toast 25')
})

t.test('a dismissed toast fades, then is removed 1 second later', async (t) => {
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

t.test('a failed call shows the server message; non-server errors get a readable one', async (t) => {
  showError(new Error('Network down'))
  t.equal(toasts.items[0]?.text, 'Network down')
  t.equal(toasts.items[0]?.kind, 'error')
  dismissToast(toasts.items[0]!.id)
  t.equal(toasts.items[0]?.dismissed, true)
})
