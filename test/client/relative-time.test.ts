import t from 'tap'
import { checkImageFile, MAX_IMAGE_BYTES } from '../../client/lib/file-check.js'
import * as MSG from '../../common/messages.js'
import { formatFullDate, formatShortDate, relativeTime } from '../../client/lib/relative-time.js'
import { paths, returnPath } from '../../client/paths.js'

const NOW = Date.parse('2026-06-15T12:00:00.000Z')
const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const at = (msAgo: number) => relativeTime(new Date(NOW - msAgo).toISOString(), NOW)

await t.test('relative time, short as on the phone: 14s, 5m, 2h, 3d, then months up to 11', async (t) => {
  const cases: [number, string][] = [
    [0, '0s'],
    [1 * SECOND, '1s'],
    [59 * SECOND, '59s'],
    [60 * SECOND, '1m'],
    [2 * MINUTE, '2m'],
    [59 * MINUTE + 59 * SECOND, '59m'],
    [60 * MINUTE, '1h'],
    [23 * HOUR + 59 * MINUTE, '23h'],
    [24 * HOUR, '1d'],
    [29 * DAY, '29d'],
    [30 * DAY, '1mo'],
    [2 * 30 * DAY, '2mo'],
    [11 * 30 * DAY, '11mo'],
    [12 * 30 * DAY - SECOND, '11mo'],
  ]
  for (const [ago, expected] of cases) t.equal(at(ago), expected, `${ago} ms ago`)
})

await t.test('beyond 11 months a short date is shown', async (t) => {
  const iso = new Date(NOW - 12 * 30 * DAY).toISOString()
  t.equal(relativeTime(iso, NOW), formatShortDate(iso))
  t.equal(relativeTime('2024-03-05T10:00:00.000Z', NOW), 'Mar 5, 2024')
})

await t.test('the full date is the clock, then the short date', async (t) => {
  const date = new Date(2025, 0, 5, 15, 5)
  t.match(formatFullDate(date.toISOString()), /^3:05\sPM · Jan 5, 2025$/)
  t.equal(formatShortDate(new Date(2025, 11, 31, 23, 59).toISOString()), 'Dec 31, 2025')
})

await t.test('the clock runs 12:00 AM at midnight to 12:59 PM after noon, minutes in two digits', async (t) => {
  const clockAt = (hours: number, minutes: number) => formatFullDate(new Date(2025, 6, 4, hours, minutes).toISOString())
  t.equal(clockAt(0, 0), '12:00 AM · Jul 4, 2025')
  t.equal(clockAt(0, 9), '12:09 AM · Jul 4, 2025')
  t.equal(clockAt(11, 59), '11:59 AM · Jul 4, 2025')
  t.equal(clockAt(12, 0), '12:00 PM · Jul 4, 2025')
  t.equal(clockAt(12, 59), '12:59 PM · Jul 4, 2025')
  t.equal(clockAt(23, 1), '11:01 PM · Jul 4, 2025')
})

await t.test('every month has its short name', async (t) => {
  const names = Array.from({ length: 12 }, (_, month) => formatShortDate(new Date(2025, month, 1, 12).toISOString()))
  t.same(
    names,
    ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map((m) => `${m} 1, 2025`),
  )
})

await t.test('a time slightly in the future reads as just now', async (t) => {
  t.equal(relativeTime(new Date(NOW + 5 * SECOND).toISOString(), NOW), '0s')
})

await t.test('an upload must be an image under 20 MiB', async (t) => {
  t.equal(checkImageFile({ type: 'image/png', size: 1000 }), null)
  t.equal(checkImageFile({ type: 'image/jpeg', size: MAX_IMAGE_BYTES - 1 }), null)
  t.equal(checkImageFile({ type: 'image/png', size: MAX_IMAGE_BYTES }), MSG.uploadTooLarge)
  t.equal(checkImageFile({ type: 'application/pdf', size: 10 }), MSG.uploadNotImage)
  t.equal(checkImageFile({ type: '', size: 10 }), MSG.uploadNotImage)
})

await t.test('paths: href builders and the return path after login', async (t) => {
  const SITE = 'https://chirp.example'
  t.equal(paths.profile.href('maya.lin'), '/profile/maya.lin')
  t.equal(paths.postDetail.href('a b'), '/post-detail/a%20b')
  t.equal(paths.login.href('/explore'), '/login?from=%2Fexplore')
  t.equal(paths.login.href('/'), '/login')
  t.equal(returnPath('/profile/maya?tab=1', SITE), '/profile/maya?tab=1')
  t.equal(returnPath(null, SITE), '/')
  t.equal(returnPath('//evil.example/x', SITE), '/', 'no protocol-relative jump off the site')
  t.equal(returnPath('https://evil.example', SITE), '/')
  t.equal(returnPath('/login', SITE), '/', 'never back to the login page itself')
  for (const from of [
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    ' //evil.example',
    'javascript:alert(1)',
  ]) {
    t.equal(returnPath(from, SITE), '/', `${JSON.stringify(from)} leaves the site as the browser reads it`)
  }
  t.equal(returnPath('/a/../post-detail/1', SITE), '/post-detail/1', 'the path as the browser resolves it')
  t.equal(returnPath('https://chirp.example/explore', SITE), '/explore', 'a full URL on this site is kept')
  t.equal(returnPath('/login?x=1', SITE), '/')
})
