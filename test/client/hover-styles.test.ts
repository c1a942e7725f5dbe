import t from 'tap'
import { allRules, rules } from './stylesheets.js'

await t.test('hover styles apply only where a pointer can hover, so a tap never leaves one stuck on', async (t) => {
  let hoverRules = 0
  for (const rule of await allRules()) {
    if (!rule.selector.includes(':hover')) continue
    hoverRules += 1
    t.ok(
      rule.within.some((at) => /^@media\s*\(hover:\s*hover\)$/.test(at)),
      `${rule.file}: ${rule.selector}`,
    )
  }
  t.ok(hoverRules > 10, `the scan found the hover rules (${hoverRules})`)
})

await t.test('the scan itself tells a bare hover rule from one inside @media (hover: hover)', async (t) => {
  const found = rules('.a:hover { color: red } @media (hover: hover) { .b:hover { color: blue } }')
  t.same(
    found.map(({ selector, within }) => ({ selector, within })),
    [
      { selector: '.a:hover', within: [] },
      { selector: '.b:hover', within: ['@media (hover: hover)'] },
    ],
  )
  t.equal(found[1]?.declarations.get('color'), 'blue', 'a last declaration needs no semicolon')
})
