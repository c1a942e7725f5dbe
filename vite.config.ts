import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { compileHints } from './scripts/client-build/compile-hints.js'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** In production React is swapped for preact/compat: the same code, a much smaller bundle. */
const preactAliases = [
  { find: /^react-dom\/test-utils$/, replacement: 'preact/compat/test-utils' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
  // wouter reaches useSyncExternalStore through React's CommonJS shim for old Reacts; preact/compat has it itself.
  { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' },
]

type ModuleGraph = { getModuleInfo: (id: string) => { importedIds: readonly string[] } | null }

/** A module and every module it imports statically, however deep. */
function staticClosure(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const seen = new Set<string>()
  const stack = [...roots]
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue
    seen.add(id)
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []))
  }
  return seen
}

/**
 * The signed-in frame and the home page, with everything they need that the entry does not already
 * hold, are built as one chunk. Split by the bundler's defaults they came as eighteen small chunks, and
 * a profile of the first load (CPU slowed 4×) found about 90 ms in the loader adding a preload link for
 * each before the first post could be drawn. The other signed-in pages stay chunks of their own.
 */
function signedInChunk() {
  let members: Set<string> | undefined
  return (id: string, graph: ModuleGraph) => {
    if (!members) {
      const entry = staticClosure(graph, [here('./client/main.tsx')])
      const frame = staticClosure(graph, [here('./client/pages/app-shell.tsx'), here('./client/pages/home-page.tsx')])
      members = new Set([...frame].filter((member) => !entry.has(member)))
    }
    return members.has(id) ? 'signed-in' : null
  }
}

const server = 'http://127.0.0.1:3000'

/**
 * The client's own source folder is client/api/, so Vite's module requests (/api/http.ts) share
 * the /api prefix with the server's calls; those are served by Vite, everything else is proxied.
 */
const api = {
  target: server,
  bypass: (req: { url?: string }) => (/^\/api\/[\w./-]+\.tsx?(\?|$)/.test(req.url ?? '') ? req.url : undefined),
}

export default defineConfig(({ command }) => ({
  root: here('./client'),
  publicDir: here('./client/public'),
  plugins: [react(), compileHints()],
  resolve: { alias: command === 'build' ? preactAliases : [] },
  build: {
    outDir: here('./dist/client'),
    emptyOutDir: true,
    // No inline scripts or styles in the output, so the server's strict CSP holds.
    assetsInlineLimit: 0,
    sourcemap: true,
    rolldownOptions: {
      // The service worker is an entry of its own, at the root so that its scope is the whole app, and
      // under a fixed name, since the browser checks that one URL for a new version.
      input: { index: here('./client/index.html'), sw: here('./client/sw/service-worker.ts') },
      output: {
        entryFileNames: (chunk: { name: string }) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        codeSplitting: { groups: [{ name: signedInChunk(), includeDependenciesRecursively: false }] },
      },
    },
  },
  server: {
    proxy: {
      '/api': api,
      '/media': { target: server },
    },
  },
}))
