import './dom.js'
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import axe from 'axe-core'
import t from 'tap'
import { App } from '../../client/app.js'
import { makeUser, ok, renderAt, resetAll, settingsApi, signInAs, until } from './helpers.js'

/** E-mail notifications in Settings (DECISIONS §15): a toggle a kind, off until turned on. */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

await t.test('Settings: each kind of mail is off until turned on, and saved as it changes', async (t) => {
  const me = makeUser({ username: 'ada', email: 'ada@example.com' })
  signInAs(me)
  const saved = {
    email: { mention: false, direct: false, follow: false, report: false },
    push: { mention: false, direct: false, follow: false, like: false, repost: false, poll: false },
  }
  const api = settingsApi(me, {
    'GET /api/account/notifications': () => ok(saved),
    'PUT /api/account/notifications': (request) => {
      const { email } = request.body as { email: Partial<typeof saved.email> }
      Object.assign(saved.email, email)
      return ok(saved)
    },
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  const section = (await screen.findByRole('heading', { name: 'E-mail notifications' })).closest('section')
  if (!section) throw new Error('no section')
  const inside = within(section)
  const mentions = (await inside.findByRole('checkbox', { name: 'Mentions' })) as HTMLInputElement
  t.equal(mentions.checked, false, 'off until turned on')
  t.equal((inside.getByRole('checkbox', { name: 'Direct messages' }) as HTMLInputElement).checked, false)
  fireEvent.click(mentions)
  await until(() => (inside.getByRole('checkbox', { name: 'Mentions' }) as HTMLInputElement).checked)
  t.same(api.calls.filter((c) => c.path === '/api/account/notifications' && c.method === 'PUT').at(-1)?.body, {
    email: { mention: true },
  })
  t.strictSame(
    (await axe.run(section)).violations.map((v) => v.id),
    [],
    'axe finds nothing',
  )
})
