import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

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
  plugins: [react()],
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
