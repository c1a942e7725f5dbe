const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const MONTH = 30 * DAY

/**
 * The app speaks en-US, and its dates are worded here rather than by Intl: a page's first Intl
 * formatter loads the browser's locale data, one task of 90 to 220 ms on a phone's CPU (Chromium, 4×
 * slowed) that would block the first drawing of every list. These few English forms are all the app shows.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

/** 'Jan 5, 2025', in the reader's time zone: the date shown past the relative range and in 'Joined …'. */
export function formatShortDate(iso: string): string {
  const date = new Date(iso)
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`
}

/** '3:05 PM', on a 12-hour clock. */
function formatClock(date: Date): string {
  const hours = date.getHours()
  const minutes = String(date.getMinutes()).padStart(2, '0')
  return `${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`
}

/**
 * The post card's time, as short as Mastodon's and Bluesky's so a phone's line keeps the handle:
 * '14s' under a minute, '5m' under an hour, '2h' under a day, '3d' under 30 days, '4mo' up to 11
 * months, then a short date. The whole moment is in the element's title. A timestamp slightly in the
 * future (clock skew between server and browser) reads as '0s'.
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const elapsed = Math.max(0, now - new Date(iso).getTime())
  if (elapsed < MINUTE) return `${Math.floor(elapsed / SECOND)}s`
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m`
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h`
  if (elapsed < MONTH) return `${Math.floor(elapsed / DAY)}d`
  const months = Math.floor(elapsed / MONTH)
  if (months <= 11) return `${months}mo`
  return formatShortDate(iso)
}

/** '3:05 PM · Jan 5, 2025': the whole moment, for a timestamp's hover text and the post page. */
export function formatFullDate(iso: string): string {
  return `${formatClock(new Date(iso))} · ${formatShortDate(iso)}`
}
