import t from 'tap'
import type { Rolldown } from 'vite'
import { addCompileHints, COMPILE_HINT } from '../../scripts/client-build/compile-hints.js'

const chunk = (fileName: string, code: string) => ({ type: 'chunk', fileName, code }) as Rolldown.OutputChunk
const asset = (fileName: string, source: string) => ({ type: 'asset', fileName, source }) as Rolldown.OutputAsset

await t.test("every script starts with V8's compile hint, and its source map moves down with it", async (t) => {
  const map = { version: 3, sources: ['main.tsx'], names: [], mappings: 'AAAA;AACA' }
  const bundle: Rolldown.OutputBundle = {
    'assets/index-abc.js': chunk('assets/index-abc.js', 'const __vite__mapDeps=1;\nrun()'),
    'assets/index-abc.js.map': asset('assets/index-abc.js.map', JSON.stringify(map)),
    'sw.js': chunk('sw.js', 'self.x=1'),
    'assets/index-abc.css': asset('assets/index-abc.css', 'body{}'),
  }
  addCompileHints(bundle)
  const code = (name: string) => (bundle[name] as Rolldown.OutputChunk).code
  const source = (name: string) => (bundle[name] as Rolldown.OutputAsset).source
  t.equal(code('assets/index-abc.js'), `${COMPILE_HINT}\nconst __vite__mapDeps=1;\nrun()`, 'first, before any preamble')
  t.equal(code('sw.js').split('\n')[0], COMPILE_HINT, 'a script without a map too')
  t.same(JSON.parse(source('assets/index-abc.js.map') as string), { ...map, mappings: ';AAAA;AACA' }, 'one line down')
  t.equal(source('assets/index-abc.css'), 'body{}', 'styles are left alone')
})
