import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import type { Shell } from '../../client/sw/shell.js'
import { writeShell } from '../../scripts/client-build/shell.js'
import { tempDataDir, type TestContext } from '../helpers/app.js'

/** The worker as Vite's minifier leaves it: the placeholder may end up in any kind of quotes. */
const worker = (quote: string) =>
  `var s=JSON.parse(${quote}__CHIRP_SHELL__${quote});self.addEventListener('install',()=>{});\n`

async function build(t: TestContext, quote = '`') {
  const dir = await tempDataDir(t)
  const files: Record<string, string> = {
    'sw.js': worker(quote),
    'sw.js.map': '{}',
    'index.html': '<!doctype html>',
    'assets/index-abc.js': 'console.log(1)',
    'assets/index-abc.js.map': '{}',
    'assets/index-abc.css': 'body{}',
    'avatars/avatar-1.svg': '<svg/>',
    'manifest.webmanifest': '{}',
    '.vite/manifest.json': '{}',
  }
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true })
    await writeFile(path.join(dir, file), text)
  }
  return dir
}

const embedded = async (dir: string): Promise<Shell> => {
  const code = await readFile(path.join(dir, 'sw.js'), 'utf8')
  const literal = /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(code)?.[1]
  if (!literal) throw new Error(`no shell in ${code}`)
  return JSON.parse(JSON.parse(literal) as string) as Shell
}

await t.test('the built worker gets the list of every file the app loads, and nothing else', async (t) => {
  const dir = await build(t)
  const shell = await writeShell(dir)
  t.same(shell.files, [
    '/assets/index-abc.css',
    '/assets/index-abc.js',
    '/avatars/avatar-1.svg',
    '/index.html',
    '/manifest.webmanifest',
  ])
  t.match(shell.version, /^[0-9a-f]{16}$/)
  t.same(await embedded(dir), shell, 'written into sw.js as a string the worker parses')
})

await t.test('any changed file makes a new version; the same build makes the same one', async (t) => {
  const one = await writeShell(await build(t))
  const same = await writeShell(await build(t, "'"))
  const changedDir = await build(t)
  await writeFile(path.join(changedDir, 'index.html'), '<!doctype html><title>new</title>')
  const changed = await writeShell(changedDir)
  t.not(changed.version, one.version, 'index.html changed')
  t.equal(same.files.join(), one.files.join())
  t.not(same.version, one.version, "the worker's own code counts too (here, its quotes)")
  t.equal((await writeShell(await build(t))).version, one.version, 'reproducible')
})

await t.test('a worker without its placeholder stops the build', async (t) => {
  const dir = await build(t)
  await writeShell(dir)
  await t.rejects(writeShell(dir), /must hold the shell placeholder once; found 0/, 'not twice over the same build')
})
