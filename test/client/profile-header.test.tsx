import './dom.js'
import { cleanup, render, screen } from '@testing-library/react'
import t from 'tap'
import { ProfileHeader } from '../../client/components/profile-header.js'
import { makeUser } from './helpers.js'

t.afterEach(() => cleanup())

const noop = () => {}
function renderWebsite(website: string) {
  return render(
    <ProfileHeader
      user={makeUser({ username: 'maya', website })}
      postCount="3"
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
