import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import ts from 'typescript'

/**
 * The modules of client/state import one another in one direction only: the records (post-cache,
 * session, users, comments, toasts), then the lists over them (lists, paged, search, notifications),
 * then the actions (posts, reposts, relations), and sign-out over all. A circle of imports, a dynamic
 * import() or a type-only one included, would tie their order of loading to chance and let a store be
 * read before it is made; this walks the folder's imports and fails on any circle, naming it.
 */
const STATE = fileURLToPath(new URL('../../client/state/', import.meta.url))

type Graph = ReadonlyMap<string, readonly string[]>

/** Every circle of `graph`, each once, as the modules in order with the first again at the end. */
function circles(graph: Graph): string[][] {
  const found = new Map<string, string[]>()
  const walk = (name: string, trail: string[]) => {
    const at = trail.indexOf(name)
    if (at !== -1) {
      const circle = trail.slice(at)
      // One circle reached from different modules is the same circle: keyed by its members, sorted.
      const key = [...circle].sort().join(' ')
      if (!found.has(key)) found.set(key, [...circle, name])
      return
    }
    for (const next of graph.get(name) ?? []) walk(next, [...trail, name])
  }
  for (const name of graph.keys()) walk(name, [])
  return [...found.values()]
}

/** Each module of the folder, by name, with the modules of the folder it imports in any way. */
async function stateImports(): Promise<Graph> {
  const files = (await readdir(STATE)).filter((file) => file.endsWith('.ts'))
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const text = await readFile(path.join(STATE, file), 'utf8')
    const { importedFiles } = ts.preProcessFile(text, true, true)
    const local = importedFiles
      .map((imported) => /^\.\/([a-z0-9-]+)\.js$/.exec(imported.fileName)?.[1])
      .filter((name): name is string => name !== undefined)
    graph.set(file.replace(/\.ts$/, ''), local)
  }
  return graph
}

await t.test('client/state has no circle of imports', async (t) => {
  const graph = await stateImports()
  t.ok(graph.size > 10, 'the folder was read')
  t.ok(graph.get('sign-out')?.includes('session'), 'imports are found')
  t.strictSame(
    circles(graph).map((circle) => circle.join(' → ')),
    [],
  )
})

await t.test('the walk finds a circle, through a dynamic import too', async (t) => {
  const { importedFiles } = ts.preProcessFile("void import('./sign-out.js').then(() => {})", true, true)
  t.strictSame(
    importedFiles.map((file) => file.fileName),
    ['./sign-out.js'],
    'a dynamic import counts',
  )
  const graph = new Map([
    ['session', ['toasts', 'sign-out']],
    ['sign-out', ['posts']],
    ['posts', ['session', 'toasts']],
    ['toasts', []],
  ])
  t.strictSame(
    circles(graph).map((circle) => circle.join(' → ')),
    ['session → sign-out → posts → session'],
  )
  t.strictSame(
    circles(
      new Map([
        ['a', ['b']],
        ['b', []],
      ]),
    ),
    [],
    'none where there is none',
  )
})
