import './dom.js'
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { allRules } from './stylesheets.js'

/**
 * index.html paints a static shell at the first byte, before any script runs: a header with the mark and
 * placeholder posts, drawn by the app's stylesheet alone (so in its light and dark colours), with no
 * inline style or script for the Content-Security-Policy to refuse.
 */
const html = await readFile(new URL('../../client/index.html', import.meta.url), 'utf8')
const document = new DOMParser().parseFromString(html, 'text/html')
const root = document.getElementById('root')
const styles = await allRules()

await t.test('the root is not empty: a header and placeholder posts', async (t) => {
  const shell = root?.querySelector('.boot-shell')
  t.ok(shell, 'a shell inside #root')
  t.equal(shell?.querySelector('header img')?.getAttribute('src'), '/favicon.svg', 'the mark in a header')
  t.equal(shell?.querySelectorAll('.skeleton-card').length, 1, 'a placeholder post')
  t.equal(shell?.querySelector('[role="status"]')?.textContent?.trim(), 'Loading Chirp', 'screen readers hear it loads')
})

await t.test('every class of the shell is styled by the stylesheet, which uses the colour variables', async (t) => {
  const classes = new Set([...(root?.querySelectorAll('[class]') ?? [])].flatMap((el) => [...el.classList]))
  for (const name of classes) {
    t.ok(
      styles.some((rule) =>
        rule.selector.split(/[\s,>+~]+/).some((part) => part.split(/(?=[.:[])/).includes(`.${name}`)),
      ),
      `.${name}`,
    )
  }
  const header = styles.find((rule) => rule.selector === '.boot-header')
  t.equal(header?.declarations.get('background'), 'var(--bg)', 'the same colours in light and dark')
})

await t.test('nothing inline for the Content-Security-Policy to refuse', async (t) => {
  t.equal(document.querySelectorAll('style, [style]').length, 0, 'no inline style')
  t.same(
    [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')),
    ['/main.tsx'],
    'one script, by its address',
  )
})
