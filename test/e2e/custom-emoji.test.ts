import { randomBytes } from 'node:crypto'
import t from 'tap'
import { runAdmin } from '../../server/cli/admin.js'
import { dropSchema, TEST_DATABASE_URL } from '../helpers/pg.js'
import { scan, SCHEMES, showScheme } from './axe.js'
import { journey, startE2E } from './harness.js'
import { drawImage, imageLoaded, postCard, signupUser, type NewUser } from './helpers.js'

/**
 * An admin uploads a custom emoji under Moderation → Emoji; a post naming it shows its image. The server runs
 * on PostgreSQL, where `npm run admin -- role` works while it runs, as an operator makes an admin.
 */
const schema = `t_${randomBytes(6).toString('hex')}`
const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
const e2e = await startE2E(t, { env })
t.teardown(() => dropSchema(schema))

let admin: NewUser | undefined
async function signedInAdmin(e2e: Parameters<typeof signupUser>[0]) {
  if (!admin) {
    admin = await signupUser(e2e, 'emojiadmin')
    const errors: string[] = []
    const code = await runAdmin(['role', admin.username, 'admin'], env, {
      log: () => {},
      error: (m) => errors.push(m),
    })
    if (code !== 0) throw new Error(`admin role: ${errors.join('\n')}`)
  }
  return admin
}

await journey(
  t,
  e2e,
  'an admin uploads an emoji; a post using it shows the image',
  { session: signedInAdmin },
  async (page, t) => {
    await page.goto('/moderation/emojis')
    const form = page.getByRole('form', { name: 'New emoji' })
    await form.getByLabel('Shortcode (2 to 32 letters, digits or _)').fill('party_blob')
    await form
      .getByLabel('Image (PNG, JPEG, GIF or WebP, at most 256 KB)')
      .setInputFiles(await drawImage(page, 'image/png'))
    await form.getByRole('button', { name: 'Add emoji' }).click()
    await page.getByRole('list', { name: 'Custom emoji' }).getByRole('img', { name: ':party_blob:' }).waitFor()
    t.pass('the emoji is listed')

    await form.getByLabel('Shortcode (2 to 32 letters, digits or _)').fill('party_blob')
    await form
      .getByLabel('Image (PNG, JPEG, GIF or WebP, at most 256 KB)')
      .setInputFiles(await drawImage(page, 'image/png'))
    await form.getByRole('button', { name: 'Add emoji' }).click()
    await form.getByText('This shortcode is taken.').waitFor()
    t.pass('a taken shortcode is told by its field')

    await page.goto('/')
    const text = `Party time ${Date.now()}`
    const card = page.locator('.composer')
    const composer = card.getByRole('textbox', { name: 'Post text' })
    await composer.fill(`${text} `)
    await card.getByRole('button', { name: 'Add emoji' }).click()
    await page.getByRole('button', { name: ':party_blob:' }).click()
    t.match(await composer.inputValue(), /:party_blob:/, 'the picker wrote the shortcode')
    await card.getByRole('button', { name: 'Post', exact: true }).click()
    const image = postCard(page, text).getByRole('img', { name: ':party_blob:' })
    t.ok(await imageLoaded(image), 'the post shows the emoji image')
  },
)

for (const scheme of SCHEMES) {
  await journey(
    t,
    e2e,
    `the emoji page and a post with an emoji pass axe, ${scheme}`,
    { session: signedInAdmin },
    async (page, t) => {
      await showScheme(page, scheme)
      await page.goto('/moderation/emojis')
      await page.getByRole('heading', { name: 'Custom emoji' }).waitFor()
      t.same(await scan(page), [], `/moderation/emojis (${scheme}): no serious or critical violations`)
      await page.goto('/')
      await page.getByRole('img', { name: ':party_blob:' }).first().waitFor()
      t.same(await scan(page), [], `home with an emoji (${scheme}): no serious or critical violations`)
    },
  )
}
