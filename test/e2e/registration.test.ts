import { randomBytes } from 'node:crypto'
import t from 'tap'
import { runAdmin } from '../../server/cli/admin.js'
import { dropSchema, TEST_DATABASE_URL } from '../helpers/pg.js'
import { scan, SCHEMES, showScheme } from './axe.js'
import { journey, startE2E } from './harness.js'
import { call, fillSignup, login, uniqueUsername, waitForPath } from './helpers.js'

/**
 * Invite-only sign-up in the browser (REGISTRATION=invite, DECISIONS §8): a moderator's invite link fills in
 * the code; a wrong code is told at its field and goes once the right one signs the person up. The server
 * runs on PostgreSQL, where `npm run admin -- role` works while it runs, as an operator makes a moderator.
 */
const schema = `t_${randomBytes(6).toString('hex')}`
const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, REGISTRATION: 'invite' }
const e2e = await startE2E(t, { env })
t.teardown(() => dropSchema(schema))

/** A code from a seeded person made moderator, as the invites page makes them. */
async function inviteCode(): Promise<string> {
  const errors: string[] = []
  const code = await runAdmin(['role', 'maya.lin', 'moderator'], env, { log: () => {}, error: (m) => errors.push(m) })
  if (code !== 0 || !e2e) throw new Error(`admin role: ${errors.join('\n')}`)
  const maya = await login(e2e, 'maya.lin', 'mayapassword')
  const reply = await call<{ invite: { code: string } }>(e2e, 'POST', '/api/invites', { uses: 1 }, maya.token)
  return reply.invite.code
}

await journey(t, e2e, 'an invite link signs a visitor up; a wrong code is told at its field', {}, async (page, t) => {
  const code = await inviteCode()
  await page.goto(`/signup?invite=${encodeURIComponent(code)}`)
  await page.getByText('Chirp is open by invite: you need the code, or the link, that you were given.').waitFor()
  const invite = page.getByLabel('Invite code')
  t.equal(await invite.inputValue(), code, 'the link filled in the code')
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme)
    t.same(await scan(page), [], `signup by invite (${scheme}): no serious or critical violations`)
  }

  const username = uniqueUsername('invited')
  await fillSignup(page, username, 'Ivy', 'Invited')
  await invite.fill('not-a-code')
  await page.getByRole('button', { name: 'Create Account' }).click()
  const refusal = page.getByText('A valid invite is required.')
  await refusal.waitFor()
  t.equal(await invite.getAttribute('aria-describedby'), await refusal.getAttribute('id'), 'told at the invite field')
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme)
    t.same(await scan(page), [], `signup with a refused invite (${scheme}): no serious or critical violations`)
  }

  await invite.fill(code)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await waitForPath(page, '/')
  await page.getByRole('button', { name: 'Account menu' }).waitFor()
  t.equal(await page.getByText('A valid invite is required.').count(), 0, 'the refusal did not follow to the home page')
})
