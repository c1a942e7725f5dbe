import t from 'tap'
import * as MSG from '../../common/messages.js'
import { NotificationSettingsSchema } from '../../server/schemas/account.js'
import { buildApiApp, expectError, expectOk, signup, type SignedUp } from '../helpers/api.js'
import { startSmtp, type ReceivedMail } from '../helpers/smtp.js'

/**
 * E-mail notifications (DECISIONS §15): off until turned on, one mail for a burst, sent by the job queue
 * to an SMTP server the test runs, each with a one-click unsubscribe (RFC 8058).
 */
const PUBLIC_URL = 'https://chirp.example'
const smtp = await startSmtp(t)
const api = await buildApiApp(t, { config: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL, mailBatchSeconds: 1 } })
const MINIMAL = { prefer: 'return=minimal' }

const settings = async (who: SignedUp) =>
  expectOk(
    t,
    await api.as(who.token, { method: 'GET', url: '/api/account/notifications' }),
    200,
    NotificationSettingsSchema,
  )
const change = (who: SignedUp, payload: unknown) =>
  api.as(who.token, { method: 'PUT', url: '/api/account/notifications', payload: payload as object })
const post = (who: SignedUp, content: string) =>
  api.as(who.token, { method: 'POST', url: '/api/posts', headers: MINIMAL, payload: { content } })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** The mails that arrived for `who` within `ms`. */
async function mailsTo(who: SignedUp, ms: number): Promise<ReceivedMail[]> {
  await sleep(ms)
  return smtp.mails.filter((mail) => mail.to.includes(who.user.email ?? ''))
}
const linkIn = (mail: ReceivedMail) =>
  /https:\/\/chirp\.example\/api\/account\/notifications\/unsubscribe\?token=[^\s>]+/.exec(mail.text)?.[0] ?? ''

await t.test('mail is off until turned on: a mention sends nothing', async (t) => {
  const [ana, ben] = [await signup(api), await signup(api)]
  t.strictSame((await settings(ana)).email, { mention: false, direct: false, follow: false, report: false })
  t.equal((await post(ben, `hello @${ana.username}`)).statusCode, 201)
  t.strictSame(await mailsTo(ana, 2500), [], 'no mail')
})

await t.test('a burst of three mentions sends one mail, with a one-click unsubscribe', async (t) => {
  const [ana, ben] = [await signup(api), await signup(api)]
  const on = expectOk(t, await change(ana, { email: { mention: true, follow: true } }), 200, NotificationSettingsSchema)
  t.strictSame(on.email, { mention: true, direct: false, follow: true, report: false }, 'the others stay off')
  for (const n of [1, 2, 3]) t.equal((await post(ben, `ping ${n} @${ana.username}`)).statusCode, 201)
  const mails = await mailsTo(ana, 3500)
  t.equal(mails.length, 1, 'one mail for the burst')
  const mail = mails[0] as ReceivedMail
  t.match(mail.text, /Subject: 3 new notifications on Chirp/)
  t.equal(mail.text.split(`@${ben.username} mentioned you`).length - 1, 3, 'listing the three')
  t.match(mail.text, /List-Unsubscribe:\s+<https:\/\/chirp\.example\/api\/account\/notifications\/unsubscribe\?token/)
  t.match(mail.text, /List-Unsubscribe-Post: List-Unsubscribe=One-Click/)
  const link = linkIn(mail)
  t.ok(link, 'and a link in the text')
  const url = new URL(link)
  const page = await api.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })
  t.equal(page.statusCode, 200)
  t.match(page.body, /Stop mail about mentions\?/, 'the page asks first')
  t.equal((await settings(ana)).email.mention, true, 'looking at it changes nothing')
  const click = await api.app.inject({
    method: 'POST',
    url: `${url.pathname}${url.search}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  })
  t.equal(click.statusCode, 200, 'one click')
  t.strictSame(
    (await settings(ana)).email,
    { mention: false, direct: false, follow: true, report: false },
    'mentions off',
  )
  t.equal((await post(ben, `again @${ana.username}`)).statusCode, 201)
  t.equal((await mailsTo(ana, 2500)).length, 1, 'no more mail about mentions')
})

await t.test('a follow is mailed to whoever wants it', async (t) => {
  const [ana, ben] = [await signup(api), await signup(api)]
  expectOk(t, await change(ana, { email: { follow: true } }), 200, NotificationSettingsSchema)
  await api.as(ben.token, { method: 'POST', url: `/api/users/follow/${ana.user._id}`, headers: MINIMAL })
  const mails = await mailsTo(ana, 3000)
  t.equal(mails.length, 1)
  t.match(mails[0]?.text, new RegExp(`@${ben.username} followed you`))
})

await t.test('a forged or altered unsubscribe link is refused and changes nothing', async (t) => {
  const ana = await signup(api)
  expectOk(t, await change(ana, { email: { mention: true } }), 200, NotificationSettingsSchema)
  for (const token of ['nonsense', `${ana.user._id}.mention.AAAA`, `${ana.user._id}.everything.AAAA`]) {
    const url = `/api/account/notifications/unsubscribe?token=${encodeURIComponent(token)}`
    expectError(t, await api.app.inject({ method: 'POST', url }), 400, MSG.unsubscribeLinkInvalid, token)
    expectError(t, await api.app.inject({ method: 'GET', url }), 400, MSG.unsubscribeLinkInvalid, token)
  }
  t.equal((await settings(ana)).email.mention, true, 'still on')
})

await t.test('bad settings are refused and change nothing; push toggles need a device', async (t) => {
  const ana = await signup(api)
  t.equal((await change(ana, { email: { mention: 'yes' } })).statusCode, 400)
  // As everywhere in the API, fields a body may not have are dropped: nothing changes.
  const ignored = expectOk(
    t,
    await change(ana, { email: { everything: true }, sms: {} }),
    200,
    NotificationSettingsSchema,
  )
  t.strictSame(ignored.email, { mention: false, direct: false, follow: false, report: false }, 'unchanged')
  const pushed = expectOk(t, await change(ana, { push: { like: true } }), 200, NotificationSettingsSchema)
  t.equal(pushed.push.like, false, 'without a subscribed device nothing is pushed')
  t.equal((await api.app.inject({ method: 'GET', url: '/api/account/notifications' })).statusCode, 401)
})
