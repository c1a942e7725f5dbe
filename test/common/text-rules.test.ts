import fc from 'fast-check'
import t from 'tap'
import { linksIn, mentionsIn, parseRichText, tagsIn, textFault } from '../../common/text-rules.js'
import { mentionsOf, tagOf, tagUsesOf } from '../../server/store/text-terms.js'
import { usernameKey } from '../../server/usernames.js'

/**
 * What the server indexes and notifies must be what the client draws: a tag shown as a link that its
 * page never lists, or a mention drawn that notifies nobody, is the drift these properties catch.
 */

/** Pieces that make the rules' edge cases likely in random text: markers, link starts, word characters, marks, dots. */
const PIECES = [
  '@',
  '#',
  'http://',
  'https://',
  'https://a.example/',
  'x',
  'a_',
  'Ab',
  'maya.lin',
  'ada',
  '.',
  '..',
  '/',
  ' ',
  '\n',
  '_',
  '1',
  '2026',
  'é',
  'e\u0301',
  '\u0301',
  'ß',
  'İ',
  '日本',
  'Ελλάδα',
  '²',
  '(',
  ')',
  ',',
  '!',
  '"',
  '?q=1',
  'x'.repeat(48),
]

const textArb = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((pieces) => pieces.join('')),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
)

/** fc.assert reports the smallest text that breaks a property; an assertion inside would log every shrinking step. */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

const serverTags = (text: string) => [
  ...tagUsesOf({ content: text, createdAt: '2026-01-01T00:00:00.000Z', comments: [] }).keys(),
]

await t.test('cut apart and joined again, the segments are the text', async (t) => {
  fc.assert(
    fc.property(
      textArb,
      (text) =>
        parseRichText(text)
          .map((segment) => segment.text)
          .join('') === text,
    ),
    { numRuns: 2000 },
  )
  t.pass('2,000 random texts')
})

await t.test('the server indexes exactly the tags the client draws', async (t) => {
  fc.assert(
    fc.property(textArb, (text) => {
      const drawn = [...new Set(tagsIn(text))]
      // A drawn tag's link opens a page the server reads by the same tag.
      return same(serverTags(text), drawn) && drawn.every((tag) => tagOf(tag) === tag)
    }),
    { numRuns: 1500 },
  )
  t.pass('1,500 random texts')
})

await t.test('the server notifies exactly the mentions the client draws', async (t) => {
  fc.assert(
    fc.property(textArb, (text) => {
      const drawn = mentionsIn(text).map((candidates) => [...new Set(candidates.map(usernameKey))])
      return same(mentionsOf(text), drawn)
    }),
    { numRuns: 1500 },
  )
  t.pass('1,500 random texts')
})

await t.test('a link is an http(s) address, and nothing inside it is a tag or a mention', async (t) => {
  fc.assert(
    fc.property(textArb, (text) => {
      for (const segment of parseRichText(text)) {
        if (segment.kind !== 'link') continue
        const url = new URL(segment.href)
        if (url.protocol !== 'https:' && url.protocol !== 'http:') return false
        if (!text.includes(segment.text)) return false
      }
      return linksIn(text).length === parseRichText(text).filter((segment) => segment.kind === 'link').length
    }),
    { numRuns: 1500 },
  )
  t.pass('1,500 random texts')
})

await t.test('the texts on which the two copies of the rules used to disagree', async (t) => {
  // The server took a link to start anywhere, the client only where a word starts.
  t.same(tagsIn('xhttps://a.example/#top'), ['top'], 'no link starts inside a word, so #top after / is a tag')
  t.same(serverTags('xhttps://a.example/#top'), ['top'], 'and the server indexes it')
  t.same(mentionsIn('a_https://x.example/@maya.lin'), [['maya.lin']])
  t.same(mentionsOf('a_https://x.example/@maya.lin'), [['maya.lin']], 'and the server notifies it')
  t.same(serverTags('see https://a.example/#top'), [], 'a link where a word starts is never scanned')
  t.same(mentionsOf('@ab.'), [['ab.']], 'a run that is a username with its dot is a mention of that name')
  t.same(mentionsIn('@ab.'), [['ab.']], 'and drawn as one')
})

await t.test('text with a NUL, another control or half a surrogate pair is refused; other text is not', async (t) => {
  const bad = fc.oneof(
    fc.integer({ min: 0, max: 0x1f }).filter((code) => code !== 9 && code !== 10 && code !== 13),
    fc.integer({ min: 0x7f, max: 0x9f }),
  )
  fc.assert(
    fc.property(fc.string(), bad, fc.string(), (before, code, after) => {
      const text = before + String.fromCharCode(code) + after
      return textFault(text) !== undefined
    }),
    { numRuns: 1000 },
  )
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (text) => textFault(text.replace(/[\p{Cc}]/gu, '')) === undefined),
    { numRuns: 1000 },
  )
  t.equal(textFault('a\u0000b'), 'must not contain control characters', 'a NUL')
  t.equal(textFault('\ud83d'), 'must be well-formed Unicode text', 'a high surrogate alone')
  t.equal(textFault('x\ude00y'), 'must be well-formed Unicode text', 'a low surrogate alone')
  t.equal(textFault('🐦 lines\n\ttabbed\r\n'), undefined, 'emoji, tabs and line breaks are text')
})
