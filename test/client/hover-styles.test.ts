import { readdir, readFile } from 'node:fs/promises'
import t from 'tap'

const STYLES = new URL('../../client/styles/', import.meta.url)

/** Every rule's selector with the at-rules around it, read from a stylesheet without nested rules. */
function rules(css: string): { selector: string; within: string[] }[] {
  const found: { selector: string; within: string[] }[] = []
  const open: string[] = []
  let text = ''
  for (const char of css.replace(/\/\*[\s\S]*?\*\//g, '')) {
    if (char === '{') {
      const prelude = text.trim()
      if (!prelude.startsWith('@')) found.push({ selector: prelude, within: [...open] })
      open.push(prelude)
      text = ''
    } else if (char === '}') {
      open.pop()
      text = ''
    } else if (char === ';') {
      text = ''
    } else {
      text += char
    }
  }
  return found
}

await t.test('hover styles apply only where a pointer can hover, so a tap never leaves one stuck on', async (t) => {
  const files = (await readdir(STYLES)).filter((name) => name.endsWith('.css'))
  let hoverRules = 0
  for (const file of files) {
    for (const rule of rules(await readFile(new URL(file, STYLES), 'utf8'))) {
      if (!rule.selector.includes(':hover')) continue
      hoverRules += 1
      t.ok(
        rule.within.some((at) => /^@media\s*\(hover:\s*hover\)$/.test(at)),
        `${file}: ${rule.selector.replace(/\s+/g, ' ')}`,
      )
    }
  }
  t.ok(hoverRules > 10, `the scan found the hover rules (${hoverRules})`)
})

await t.test('the scan itself tells a bare hover rule from one inside @media (hover: hover)', async (t) => {
  const found = rules('.a:hover { color: red } @media (hover: hover) { .b:hover { color: blue } }')
  t.same(found, [
    { selector: '.a:hover', within: [] },
    { selector: '.b:hover', within: ['@media (hover: hover)'] },
  ])
})
