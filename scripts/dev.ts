import { spawn, type ChildProcess } from 'node:child_process'

/**
 * `npm run dev`: the API server restarted on change, and Vite's dev server with /api proxied to it.
 * Both stop together.
 */
const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch-path=server', '--import', 'tsx', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
]

let stopping = false
function stop(code: number) {
  if (stopping) return
  stopping = true
  for (const child of children) child.kill('SIGTERM')
  process.exitCode = code
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0))
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))
