import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { tempDataDir } from '../helpers/app.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const README_MAX_LINES = 300

/** The README and every page of docs/, as paths from the root. */
function documents(root: string): string[] {
  const docs = path.join(root, 'docs')
  const pages = existsSync(docs) ? readdirSync(docs).filter((name) => name.endsWith('.md')) : []
  return ['README.md', ...pages.sort().map((name) => `docs/${name}`)]
}

/** The lines outside fenced code blocks, where headings and links are markdown and not example text. */
function proseLines(markdown: string): string[] {
  let fence: string | undefined
  const lines: string[] = []
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1]
    if (marker && (fence === undefined || fence === marker)) {
      fence = fence === undefined ? marker : undefined
      continue
    }
    if (fence === undefined) lines.push(line)
  }
  return lines
}

/**
 * GitHub's anchor for a heading: the text as shown (code marks, emphasis and link targets gone), lower
 * case, punctuation dropped, each space a hyphen; a repeated anchor gets -1, -2 and so on.
 */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*~]/g, '')
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** Every inline link's target, code spans aside: `[text](target)` and `[text](target "title")`. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = []
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '')
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1] ?? '')
  }
  return targets
}

/** What is wrong with the relative links of these files: a file that is not there, or an anchor no heading has. */
function linkProblems(root: string, files: string[]): string[] {
  const problems: string[] = []
  for (const file of files) {
    const markdown = readFileSync(path.join(root, file), 'utf8')
    for (const target of linkTargets(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
      const [pathPart = '', anchor] = target.split('#', 2)
      const linked =
        pathPart === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), pathPart)
      if (!existsSync(linked)) {
        problems.push(`${file}: ${target} links to a file that does not exist`)
        continue
      }
      if (anchor === undefined) continue
      if (statSync(linked).isDirectory() || !linked.endsWith('.md')) {
        problems.push(`${file}: ${target} has an anchor, but links to no markdown page`)
        continue
      }
      if (!anchorsOf(readFileSync(linked, 'utf8')).has(decodeURIComponent(anchor)))
        problems.push(`${file}: ${target} names no heading of ${path.relative(root, linked)}`)
    }
  }
  return problems
}

await t.test(
  'every relative link of the README and docs/ leads to a file, and every anchor to a heading',
  async (t) => {
    t.strictSame(linkProblems(ROOT, documents(ROOT)), [])
  },
)

await t.test('the README stays short and links every page of docs/', async (t) => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)
  t.ok(lines < README_MAX_LINES, `README.md has ${lines} lines, fewer than ${README_MAX_LINES}`)
  const linked = new Set(linkTargets(readme).map((target) => target.split('#')[0]))
  for (const page of documents(ROOT).slice(1)) t.ok(linked.has(page), `README.md links ${page}`)
})

await t.test('a missing file, a missing anchor and a stale anchor into another page are each found', async (t) => {
  const root = await tempDataDir(t)
  await mkdir(path.join(root, 'docs'))
  await writeFile(
    path.join(root, 'README.md'),
    [
      '# Chirp',
      '',
      'See [the API](docs/api.md#errors), [calls](docs/api.md#calls), [gone](docs/gone.md), [here](#chirp),',
      '[nowhere](#nowhere), [the site](https://example.com/#x) and `[code](docs/none.md)`.',
      '',
      '```sh',
      '# Not a heading',
      'echo "[not a link](docs/none.md)"',
      '```',
      '',
    ].join('\n'),
  )
  await writeFile(
    path.join(root, 'docs', 'api.md'),
    '# The API\n\n## Errors\n\n## Your account: password, export (and deletion)\n\n[Up](../README.md#not-here)\n',
  )
  t.strictSame(linkProblems(root, documents(root)), [
    'README.md: docs/api.md#calls names no heading of docs/api.md',
    'README.md: docs/gone.md links to a file that does not exist',
    'README.md: #nowhere names no heading of README.md',
    'docs/api.md: ../README.md#not-here names no heading of README.md',
  ])
  t.ok(anchorsOf('## Your account: password, export (and deletion)').has('your-account-password-export-and-deletion'))
  t.ok(anchorsOf('## `npm test` and CI\n## `npm test` and CI').has('npm-test-and-ci-1'), 'a repeated heading')
})
