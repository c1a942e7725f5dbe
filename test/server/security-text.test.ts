import t from 'tap'
import { MSG } from '../../server/errors.js'
import { hasVisibleText, nameProblem } from '../../server/schemas/text.js'
import { buildApiApp, expectError, signup } from '../helpers/api.js'
import { snapshotDb } from '../helpers/seeded.js'

/** Characters that render as nothing, each alone and all together. */
const INVISIBLE = {
  'zero-width space': '\u200b',
  'word joiner': '\u2060',
  'Braille blank': '\u2800',
  'Hangul filler': '\u3164',
  'halfwidth Hangul filler': '\uffa0',
  'soft hyphen': '\u00ad',
  'left-to-right mark': '\u200e',
  'Arabic letter mark': '\u061c',
  'variation selector': '\ufe0f',
  'combining acute accent alone': '\u0301',
  'ideographic space': '\u3000',
  'no-break space': '\u00a0',
}
const ALL_INVISIBLE = Object.values(INVISIBLE).join('')

await t.test(
  'visible text: letters, digits, emoji and punctuation in any script; nothing that renders blank',
  async (t) => {
    for (const [name, text] of Object.entries(INVISIBLE)) t.notOk(hasVisibleText(text), `${name} alone is not visible`)
    t.notOk(hasVisibleText(ALL_INVISIBLE), 'nor all of them together')
    t.notOk(hasVisibleText(' \t\r\n'), 'nor whitespace')
    for (const text of ['a', '7', '.', '👍', '中文', 'é', 'e\u0301', '\u3164x', 'ﷺ', '🏳️‍🌈']) {
      t.ok(hasVisibleText(text), `${JSON.stringify(text)} is visible`)
    }
  },
)

await t.test('names: one line, no spoofing, something visible', async (t) => {
  t.equal(nameProblem('firstName', 'Maya'), undefined)
  t.equal(nameProblem('firstName', 'José María'), undefined)
  t.equal(nameProblem('firstName', 'Zoë 👩‍💻'), undefined, 'a zero-width joiner inside an emoji stays')
  t.equal(nameProblem('firstName', 'علي'), undefined)
  const breaks = { tab: '\t', 'line feed': '\n', 'carriage return': '\r', 'line separator': '\u2028' }
  for (const [what, mark] of Object.entries(breaks)) {
    t.equal(nameProblem('firstName', `Ma${mark}ya`), 'firstName must be one line, without tabs or line breaks', what)
  }
  const spoofing = {
    LRM: '\u200e',
    RLM: '\u200f',
    ALM: '\u061c',
    RLO: '\u202e',
    isolate: '\u2067',
    'soft hyphen': '\u00ad',
    'Hangul filler': '\u3164',
    'Braille blank': '\u2800',
  }
  for (const [what, mark] of Object.entries(spoofing)) {
    t.equal(
      nameProblem('lastName', `Lin${mark}`),
      'lastName must not contain invisible or direction-changing characters',
      what,
    )
  }
  t.equal(nameProblem('firstName', '   '), 'firstName must contain visible text')
  t.equal(nameProblem('firstName', '\ufe0f\u0301'), 'firstName must contain visible text')
})

await t.test(
  'the API refuses invisible names, posts, comments and image descriptions, and stores nothing',
  async (t) => {
    const api = await buildApiApp(t)
    const me = await signup(api, { username: 'text_checker' })
    const signupAs = (fields: Record<string, string>) =>
      api.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: {
          username: 'blank_name',
          password: 'password123',
          firstName: 'A',
          lastName: 'B',
          email: 'b@example.com',
          ...fields,
        },
      })
    const edit = (fields: Record<string, string>) =>
      api.as(me.token, { method: 'POST', url: '/api/users/edit', payload: { userData: fields } })
    const { posts } = (await api.app.inject({ method: 'GET', url: '/api/posts' })).json() as {
      posts: Array<{ _id: string }>
    }
    const postId = posts[0]?._id ?? ''
    const before = await snapshotDb(api)

    expectError(
      t,
      await signupAs({ firstName: '\u3164' }),
      400,
      'firstName must not contain invisible or direction-changing characters',
    )
    expectError(
      t,
      await signupAs({ lastName: '\u2800\u2800' }),
      400,
      'lastName must not contain invisible or direction-changing characters',
    )
    expectError(t, await signupAs({ firstName: '\ufe0f' }), 400, 'firstName must contain visible text')
    expectError(t, await signupAs({ firstName: ' ' }), 400, 'firstName must contain visible text')
    expectError(
      t,
      await signupAs({ lastName: 'Lin\u200f' }),
      400,
      'lastName must not contain invisible or direction-changing characters',
    )
    expectError(
      t,
      await signupAs({ firstName: 'Ma\nya' }),
      400,
      'firstName must be one line, without tabs or line breaks',
    )
    // Text is judged once the { userData } wrapper is read, so a message names the field as the schema's do.
    expectError(
      t,
      await edit({ firstName: '\u00ad' }),
      400,
      'firstName must not contain invisible or direction-changing characters',
    )
    expectError(t, await edit({ lastName: 'Lin\t' }), 400, 'lastName must be one line, without tabs or line breaks')

    for (const [name, text] of Object.entries(INVISIBLE)) {
      const post = await api.as(me.token, { method: 'POST', url: '/api/posts', payload: { content: text } })
      expectError(t, post, 400, MSG.emptyPost, `a post of a ${name}`)
      const comment = await api.as(me.token, { method: 'POST', url: `/api/comments/add/${postId}`, payload: { text } })
      expectError(t, comment, 400, MSG.emptyComment, `a comment of a ${name}`)
    }
    expectError(
      t,
      await api.as(me.token, { method: 'POST', url: '/api/posts', payload: { content: ALL_INVISIBLE } }),
      400,
      MSG.emptyPost,
    )
    const withImage = (mediaAlt: string) =>
      api.as(me.token, {
        method: 'POST',
        url: '/api/posts',
        payload: { content: '', mediaUrl: 'https://images.example/cat.png', mediaAlt },
      })
    expectError(t, await withImage('\u200b\u2800'), 400, 'mediaAlt must contain visible text')
    expectError(t, await withImage('  '), 400, 'mediaAlt must contain visible text')
    t.strictSame(await snapshotDb(api), before, 'nothing was written')

    const fine = await api.as(me.token, { method: 'POST', url: '/api/posts', payload: { content: '\u200b👍' } })
    t.equal(fine.statusCode, 201, 'one visible character among invisible ones is a post')
    t.equal((await withImage('')).statusCode, 201, 'an image without a description')
    t.equal((await withImage('A cat asleep')).statusCode, 201, 'an image with one')
    const named = await signupAs({ firstName: 'Zoë', lastName: 'Ng' })
    t.equal(named.statusCode, 201, 'ordinary names still sign up')
  },
)
