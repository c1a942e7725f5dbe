import t from 'tap'
import { allRules, rules } from './stylesheets.js'

/** The times in a value, in seconds, in order: for an animation, its duration and then its delay. */
const seconds = (value: string) =>
  [...value.matchAll(/(?<![\w-])(\d*\.?\d+)(ms|s)\b/g)].map(([, n, unit]) => Number(n) / (unit === 'ms' ? 1000 : 1))

const HALF_SECOND = 0.5

await t.test('looping animations (the loading indicators) wait half a second before they start', async (t) => {
  const all = await allRules()
  const looping = all.filter((rule) => rule.declarations.get('animation')?.includes('infinite'))
  t.ok(looping.length >= 2, `the spinner's dots and the skeleton loop (${looping.length} rules)`)
  const animated = looping.map((rule) => rule.selector)
  for (const rule of looping) {
    const [, delay = 0] = seconds(rule.declarations.get('animation') ?? '')
    t.ok(delay >= HALF_SECOND, `${rule.file}: ${rule.selector} starts after ${delay} s`)
  }
  // A later rule for the same element (the second and third dot) may move its start, but not earlier.
  for (const rule of all) {
    const delay = rule.declarations.get('animation-delay')
    if (delay === undefined || !animated.some((selector) => rule.selector.startsWith(selector))) continue
    t.ok(Math.min(...seconds(delay)) >= HALF_SECOND, `${rule.file}: ${rule.selector} starts after ${delay}`)
  }
})

await t.test('the spinner is hidden for that half second, so a quick load shows none', async (t) => {
  const all = await allRules()
  const spinner = all.find((rule) => rule.selector === '.spinner')
  const animation = spinner?.declarations.get('animation') ?? ''
  const [name] = animation.split(/\s+/)
  const [, delay = 0] = seconds(animation)
  t.ok(delay >= HALF_SECOND, `.spinner: ${animation}`)
  t.match(animation, /\bbackwards\b|\bboth\b/, 'its first keyframe holds while it waits')
  const from = all.find((rule) => rule.selector === 'from' && rule.declarations.get('opacity') === '0')
  t.ok(name && from, `keyframes ${name} start from opacity 0`)
})

await t.test('the scan reads delays the way CSS does', async (t) => {
  t.same(seconds('pulse 1.1s ease-in-out 0.5s infinite'), [1.1, 0.5])
  t.same(seconds('shimmer 1400ms 250ms'), [1.4, 0.25])
  t.same(seconds('fade-in 0.2s ease-out'), [0.2], 'no delay, no second time')
  const [rule] = rules('.a { animation: x 1s 2s infinite; color: red }')
  t.equal(rule?.declarations.get('animation'), 'x 1s 2s infinite')
})
