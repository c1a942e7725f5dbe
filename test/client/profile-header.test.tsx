import './dom.js'
import { cleanup, render, screen } from '@testing-library/react'
import t from 'tap'
import { ProfileHeader } from '../../client/components/profile-header.js'
import { makeUser } from './helpers.js'

t.afterEach(() => cleanup())

const noop = () => {}
function renderHeader(overrides: Parameters<typeof makeUser>[0], postCount?: number) {
  return render(
    <ProfileHeader
      user={makeUser({ username: 'maya', ...overrides })}
      postCount={postCount}
      isMe={false}
      following={false}
      followBusy={false}
      onEditProfile={noop}
      onToggleFollow={noop}
      onShowFollowing={noop}
      onShowFollowers={noop}
    />,
  )
}
const renderWebsite = (website: string) => renderHeader({ website }, 3)

/** The count's whole text, "1 Post" or "524 Posts". */
const countText = (text: string) =>
  screen.getByText((_, element) => element?.textContent === text && element.className === 'count')

await t.test('the post count is the true one, singular for one', async (t) => {
  for (const [count, text] of [
    [1, '1 Post'],
    [524, '524 Posts'],
    [0, '0 Posts'],
    [undefined, '– Posts'],
  ] as const) {
    renderHeader({}, count)
    t.ok(countText(text), text)
    cleanup()
  }
})

await t.test('the display name heads the profile, with the banner above it', async (t) => {
  renderHeader({ displayName: 'Maya the Maker', bannerURL: '/media/00000000-0000-4000-8000-000000000000.png' })
  t.ok(screen.getByRole('heading', { name: 'Maya the Maker' }))
  const banner = document.querySelector('img.profile-banner')
  t.equal(banner?.getAttribute('src'), '/media/00000000-0000-4000-8000-000000000000.png')
  t.equal(banner?.getAttribute('alt'), '', 'decorative: the name says whose it is')
  cleanup()
  renderHeader({ firstName: 'Maya', lastName: 'Lin', displayName: '' })
  t.ok(screen.getByRole('heading', { name: 'Maya Lin' }), 'no display name: the names')
})

await t.test(
  'an http(s) website is a link that opens apart, without referrer, and shows the parsed address',
  async (t) => {
    renderWebsite('https://example.com/maya')
    const link = screen.getByRole('link', { name: /example\.com\/maya/ })
    t.equal(link.getAttribute('href'), 'https://example.com/maya')
    t.equal(link.getAttribute('rel'), 'noopener noreferrer nofollow')
    t.equal(link.getAttribute('target'), '_blank')
  },
)

await t.test('a look-alike Unicode host is shown in its punycode form', async (t) => {
  renderWebsite('https://exаmple.com/')
  const link = screen.getByRole('link', { name: /xn--/ })
  t.match(link.textContent ?? '', /^xn--.*\.com$/)
})

for (const website of [
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  'https://user:pass@example.com/',
  '//example.com',
  'vbscript:msgbox',
]) {
  await t.test(`${website} is never rendered as a link`, async (t) => {
    renderWebsite(website)
    t.equal(screen.queryAllByRole('link').length, 0)
  })
}
