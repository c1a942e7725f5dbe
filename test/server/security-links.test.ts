import t from 'tap'
import { MSG } from '../../server/errors.js'
import { PRESET_AVATARS } from '../../server/schemas/media.js'
import { isValidAvatarUrl, isValidMediaUrl, isValidWebsite } from '../../server/services/urls.js'
import { buildSeededApp, snapshotDb } from '../helpers/seeded.js'

const UPLOADED = '/media/0b7e3f6c-4a7e-4c1e-9d1a-2f6f5b8e9a01.png'

/** Refused everywhere a link is stored: website, post media and avatar. */
const HOSTILE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\tjavascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'javascript://example.com/%0aalert(1)',
  'javascript&#58;alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
  'data:image/png;base64,iVBORw0KGgo=',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://example.com/x.png',
  'blob:https://example.com/0b7e3f6c',
  'about:blank',
  'mailto:someone@example.com',
  '//evil.example/x.png',
  '///evil.example/x.png',
  '\\\\evil.example\\x.png',
  '/\\evil.example/x.png',
  'https:\\\\evil.example',
  'https://example.com\\@evil.example/',
  'https:evil.example',
  'https:/evil.example',
  'https://',
  'https://user:password@evil.example/',
  'https://user@evil.example/',
  'https://:password@evil.example/',
  'https://exa\u200bmple.com/',
  'https://example.com/\u202egnp.exe',
  'https://evil.example\u0000',
  'https://exa mple.com/',
  'https://[::1/',
  'example.com',
  'www.example.com',
  '/relative/path.png',
  '../media/x.png',
  'x'.repeat(600),
]

await t.test('hostile links are refused by every check', async (t) => {
  for (const link of HOSTILE) {
    t.notOk(isValidWebsite(link), `website ${JSON.stringify(link.slice(0, 60))}`)
    t.notOk(isValidMediaUrl(link), `mediaUrl ${JSON.stringify(link.slice(0, 60))}`)
    t.notOk(isValidAvatarUrl(link), `avatarURL ${JSON.stringify(link.slice(0, 60))}`)
  }
})

await t.test('media and avatars need https or an uploaded file; websites may be http', async (t) => {
  t.ok(isValidWebsite(''))
  t.ok(isValidWebsite('https://example.com/about?x=1#me'))
  t.ok(isValidWebsite('http://example.com'))
  t.ok(isValidMediaUrl(''))
  t.ok(isValidMediaUrl('https://cdn.example.com/a.png'))
  t.ok(isValidMediaUrl(UPLOADED))
  t.notOk(isValidMediaUrl('http://cdn.example.com/a.png'), 'plain http media would be mixed content')
  t.ok(isValidAvatarUrl(PRESET_AVATARS[0]))
  t.ok(isValidAvatarUrl(UPLOADED))
  t.notOk(isValidAvatarUrl(''), 'an avatar is never empty')
  for (const path of [
    '/media/../db.json',
    '/media/%2e%2e/db.json',
    '/media/x.png',
    '/media/0b7e3f6c-4a7e-4c1e-9d1a-2f6f5b8e9a01.svg',
    '/media/0b7e3f6c-4a7e-4c1e-9d1a-2f6f5b8e9a01.png?x=1',
    '/media/0b7e3f6c-4a7e-4c1e-9d1a-2f6f5b8e9a01.png/..',
    '/MEDIA/0b7e3f6c-4a7e-4c1e-9d1a-2f6f5b8e9a01.png',
    '/avatars/../../db.json',
  ]) {
    t.notOk(isValidMediaUrl(path), `mediaUrl ${path}`)
    t.notOk(isValidAvatarUrl(path), `avatarURL ${path}`)
  }
})

await t.test('the API refuses them with 400 and stores nothing', async (t) => {
  const api = await buildSeededApp(t, { config: { rateLimit: false } })
  const token = await api.login('lucia.rossi')
  const before = await snapshotDb(api)
  let i = 0
  for (const link of HOSTILE) {
    const website = await api.as(token, {
      method: 'POST',
      url: '/api/users/edit',
      payload: { userData: { website: link } },
    })
    t.equal(website.statusCode, 400, `website ${JSON.stringify(link.slice(0, 40))}`)
    const media = await api.as(token, {
      method: 'POST',
      url: '/api/posts',
      payload: { postData: { content: 'x', mediaUrl: link } },
    })
    t.equal(media.statusCode, 400, `mediaUrl ${JSON.stringify(link.slice(0, 40))}`)
    const avatar = await api.as(token, { method: 'POST', url: '/api/users/edit', payload: { avatarURL: link } })
    t.equal(avatar.statusCode, 400, `avatarURL ${JSON.stringify(link.slice(0, 40))}`)
    const signup = await api.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        username: `linker_${i++}`,
        password: 'password123',
        firstName: 'L',
        lastName: 'K',
        email: 'l@example.com',
        avatarURL: link,
      },
    })
    t.equal(signup.statusCode, 400, `signup avatarURL ${JSON.stringify(link.slice(0, 40))}`)
  }
  const website = await api.as(token, {
    method: 'POST',
    url: '/api/users/edit',
    payload: { website: 'javascript:alert(1)' },
  })
  t.strictSame(website.json(), { errors: [MSG.badWebsite], code: 'bad_website' })
  t.strictSame(await snapshotDb(api), before, 'the database files are unchanged')
})
