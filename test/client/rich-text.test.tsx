import './dom.js'
import { readFile } from 'node:fs/promises'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import t from 'tap'
import { CommentItem } from '../../client/components/comment-item.js'
import { RichText } from '../../client/components/rich-text.js'
import { isTag, parseRichText } from '../../common/text-rules.js'
import { makeComment, renderAt } from './helpers.js'

t.afterEach(() => cleanup())

const REL = 'noopener noreferrer nofollow ugc'

function links(container: HTMLElement) {
  return [...container.querySelectorAll('a')].map((a) => ({ text: a.textContent, href: a.getAttribute('href') }))
}

await t.test('mentions, tags and web addresses become links; the rest stays as typed', async (t) => {
  const text = 'Hi @maya.lin, see #Café and https://example.com/a?b=1 now'
  const { container } = renderAt(
    '/',
    <p>
      <RichText text={text} />
    </p>,
  )
  t.equal(container.textContent, text, 'nothing added or lost')
  t.same(links(container), [
    { text: '@maya.lin', href: '/profile/maya.lin' },
    { text: '#Café', href: '/tag/caf%C3%A9' },
    { text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
  ])
  const outside = screen.getByRole('link', { name: 'https://example.com/a?b=1' })
  t.equal(outside.getAttribute('rel'), REL)
  t.equal(outside.getAttribute('target'), '_blank')
  t.equal(screen.getByRole('link', { name: '@maya.lin' }).getAttribute('target'), null, 'in-app links stay in the tab')
})

await t.test('a mention follows the username rule', async (t) => {
  const kinds = (text: string) => parseRichText(text).filter((s) => s.kind !== 'text')
  t.same(kinds('@ab is too short'), [])
  t.same(kinds('@abc'), [{ kind: 'mention', text: '@abc', username: 'abc', candidates: ['abc'] }])
  t.same(kinds(`@${'a'.repeat(30)}`).length, 1, '30 characters')
  t.same(kinds(`@${'a'.repeat(31)}`), [], '31 characters is no username, nor any part of it')
  t.same(kinds('mail ada@example.com'), [], 'an address mentions nobody')
  t.same(
    kinds('thanks @maya.lin.'),
    [{ kind: 'mention', text: '@maya.lin', username: 'maya.lin', candidates: ['maya.lin.', 'maya.lin'] }],
    'the full stop ends the sentence, unless someone has the name with it',
  )
  t.same(
    kinds('@maya-lin'),
    [{ kind: 'mention', text: '@maya', username: 'maya', candidates: ['maya'] }],
    'a dash is not part of a username',
  )
  t.same(kinds('@Ünal'), [], 'letters outside A-Z are not in usernames')
})

await t.test('a tag is 1 to 50 letters of any script, digits or _, not only digits', async (t) => {
  const tags = (text: string) => parseRichText(text).flatMap((s) => (s.kind === 'tag' ? [s.tag] : []))
  t.same(tags('#a #日本語 #Ελλάδα #snake_case #2026 #v2'), ['a', '日本語', 'ελλάδα', 'snake_case', 'v2'])
  t.same(tags(`#${'x'.repeat(50)}`), ['x'.repeat(50)])
  t.same(tags(`#${'x'.repeat(51)}`), [], 'too long is no tag at all')
  t.same(tags('C#dev and a#b'), [], 'inside a word is no tag')
  t.same(tags('#tag, #end.'), ['tag', 'end'], 'punctuation ends a tag')
  t.same(tags('https://example.com/#top'), [], 'a link is never scanned for tags')
  t.same(tags('https://example.com/@ada'), [])
})

await t.test('text all in ASCII is cut as the same text among other scripts would be', async (t) => {
  // A word in another script after the text sends it through the Unicode rules; the cuts before it must agree.
  const elsewhere = ' · Ελλάδα'
  const samples = [
    'Hi @maya.lin, see #coffee and https://example.com/a?b=1 now',
    'mail ada@example.com or C#dev, a#b, x_#y, 9#z, _@abc',
    '#2026 #v2 #snake_case #tag, #end. @ab @abc. @a_b.c',
    `#${'x'.repeat(50)} #${'y'.repeat(51)} @${'a'.repeat(30)} @${'b'.repeat(31)}`,
    'HTTPS://EXAMPLE.COM/UP (see http://a.example/x). xhttp://no.example _https://no.example',
    'https://example.com/#top https://example.com/@ada #after',
  ]
  for (const text of samples) {
    const ascii = parseRichText(text)
    const mixed = parseRichText(text + elsewhere)
    const last = ascii[ascii.length - 1]
    if (last?.kind === 'text') t.same(mixed, [...ascii.slice(0, -1), { ...last, text: last.text + elsewhere }], text)
    else t.same(mixed, [...ascii, { kind: 'text', text: elsewhere }], text)
  }
  t.ok(isTag('v2') && isTag('Ελλάδα') && !isTag('2026') && !isTag('٢٠٢٦') && !isTag('a-b'), 'isTag in either script')
})

await t.test('hostile text shows as text and links only to http and https', async (t) => {
  const text =
    'javascript:alert(1) <img src=x onerror=alert(1)> <a href="javascript:x">y</a> data:text/html,<b>hi</b> http://'
  const { container } = render(
    <p>
      <RichText text={text} />
    </p>,
  )
  t.equal(container.textContent, text, 'the markup is shown as typed')
  t.equal(container.querySelector('img'), null, 'no element made from the text')
  t.equal(container.querySelector('b'), null)
  t.same(links(container), [], 'nothing that is not a web address is a link')

  const sneaky = 'javascript://https://example.com HTTPS://EXAMPLE.COM/Up'
  const { container: second } = render(
    <p>
      <RichText text={sneaky} />
    </p>,
  )
  const hrefs = links(second).map((l) => l.href)
  t.same(hrefs, ['https://example.com/', 'https://example.com/Up'], 'only the http(s) part, as a parsed URL')
  t.ok(hrefs.every((href) => href?.startsWith('https://')))
})

await t.test('punctuation after a web address is not part of it, but brackets it opened are', async (t) => {
  const linked = (text: string) => parseRichText(text).flatMap((s) => (s.kind === 'link' ? [s.text] : []))
  t.same(linked('Read https://example.com/a.'), ['https://example.com/a'])
  t.same(linked('(see https://example.com/x), then'), ['https://example.com/x'])
  t.same(linked('"https://example.com/q?x=1"!'), ['https://example.com/q?x=1'])
  t.same(linked('https://en.wikipedia.org/wiki/Foo_(bar)'), ['https://en.wikipedia.org/wiki/Foo_(bar)'])
  t.same(linked('(https://en.wikipedia.org/wiki/Foo_(bar))'), ['https://en.wikipedia.org/wiki/Foo_(bar)'])
  t.same(linked('https://example.com/a...'), ['https://example.com/a'])
  const { container } = render(
    <p>
      <RichText text="Read https://example.com/a." />
    </p>,
  )
  t.equal(container.textContent, 'Read https://example.com/a.', 'the full stop is still shown, after the link')
})

await t.test('a very long word wraps inside the post instead of widening the page', async (t) => {
  const long = 'a'.repeat(400)
  const { container } = renderAt(
    '/',
    <ul>
      <CommentItem
        comment={makeComment(`${long} https://example.com/${long}`)}
        canEdit={false}
        canDelete={false}
        now={0}
        onEdit={async () => true}
        onDelete={() => {}}
      />
    </ul>,
  )
  t.equal(container.querySelector('.comment-text')?.textContent, `${long} https://example.com/${long}`)
  // jsdom lays nothing out, so the rule itself is checked; the e2e journey measures it in Chromium.
  const css = await readFile(new URL('../../client/styles/posts.css', import.meta.url), 'utf8')
  const rule = /\.post-content,\s*\.comment-text\s*\{([^}]*)\}/.exec(css)?.[1] ?? ''
  t.match(rule, /overflow-wrap:\s*anywhere/, 'post and comment text break anywhere when a word is too long')
})

await t.test('clicking a mention in a comment goes to the profile in the app', async (t) => {
  const { location } = renderAt(
    '/post-detail/p1',
    <ul>
      <CommentItem
        comment={makeComment('hello @guest #news')}
        canEdit={false}
        canDelete={false}
        now={0}
        onEdit={async () => true}
        onDelete={() => {}}
      />
    </ul>,
  )
  fireEvent.click(screen.getByRole('link', { name: '@guest' }))
  t.equal(location.history?.at(-1), '/profile/guest')
  fireEvent.click(screen.getByRole('link', { name: '#news' }))
  t.equal(location.history?.at(-1), '/tag/news')
})
