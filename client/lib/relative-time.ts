const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const MONTH = 30 * DAY

/**
 * The app speaks en-US. Each formatter is made the first time it is needed, not when the module loads:
 * a browser's first formatter loads its locale data, and a page that shows no date should not pay for it.
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined
  return () => (made ??= make())
}

const shortDate = once(() => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }))
const clock = once(() => new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }))
const relative = once(() => new Intl.RelativeTimeFormat('en-US', { numeric: 'always' }))

/**
 * Makes the formatters before the first dates are drawn. The first one made loads the browser's locale
 * data, a long task (about 75 ms on a phone's CPU): made while the page's data is still on its way, it is
 * not part of the first drawing of a list, which would otherwise block input for that much longer.
 */
export function prepareDateFormats(): void {
  relative()
  clock()
  shortDate()
}

/** 'Jan 5, 2025': the date shown past the relative range and in 'Joined …'. */
export function formatShortDate(iso: string): string {
  return shortDate().format(new Date(iso))
}

/** '5 minutes ago'; the count is negated to say the past, and -0 reads as '0 seconds ago'. */
function ago(count: number, unit: Intl.RelativeTimeFormatUnit): string {
  return relative().format(-count, unit)
}

/**
 * The post card's time: seconds under 60, minutes under 60, hours under 24,
 * days under 30, months up to 11, then a short date. A timestamp slightly in the
 * future (clock skew between server and browser) reads as 0 seconds ago.
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const elapsed = Math.max(0, now - new Date(iso).getTime())
  if (elapsed < MINUTE) return ago(Math.floor(elapsed / SECOND), 'second')
  if (elapsed < HOUR) return ago(Math.floor(elapsed / MINUTE), 'minute')
  if (elapsed < DAY) return ago(Math.floor(elapsed / HOUR), 'hour')
  if (elapsed < MONTH) return ago(Math.floor(elapsed / DAY), 'day')
  const months = Math.floor(elapsed / MONTH)
  if (months <= 11) return ago(months, 'month')
  return formatShortDate(iso)
}

/** '3:05 PM · Jan 5, 2025': the whole moment, for a timestamp's hover text and the post page. */
export function formatFullDate(iso: string): string {
  const date = new Date(iso)
  return `${clock().format(date)} · ${shortDate().format(date)}`
}
