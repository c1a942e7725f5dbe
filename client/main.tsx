import './styles/index.css'
import { createRoot } from 'react-dom/client'
import { App } from './app.js'
import { watchReadingPosition } from './lib/reading-position.js'
import { registerServiceWorker } from './lib/service-worker.js'
import { requestHomeEarly } from './state/early-home.js'
import { watchNetwork } from './state/network.js'
import { startSession } from './state/session.js'

// A rejected token makes every store forget its person (state/sign-out.ts). That code comes with the
// signed-in pages, not with the first load, so it is fetched when needed; it has run long before anyone
// can sign in again.
startSession(() => void import('./state/sign-out.js').then(({ clearState }) => clearState()))
requestHomeEarly(window.location.pathname)
watchNetwork()
watchReadingPosition()

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
// index.html's static shell goes as the app draws: nothing of it may linger among the app's own elements.
root.replaceChildren()
createRoot(root).render(<App />)

// Live updates are not needed for the first paint: their code (the stream, and how each event reaches
// state) arrives as a chunk of its own while the first page loads.
void import('./live/index.js').then(({ startLive }) => startLive())

// Only the production build has a worker (dist/client/sw.js); Vite's dev server serves modules fresh.
if (import.meta.env.PROD) registerServiceWorker()
