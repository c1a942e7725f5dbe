import './styles/index.css'
import { createRoot } from 'react-dom/client'
import { App } from './app.js'
import { startLive } from './live/index.js'
import { startSession } from './state/session.js'

startSession()
startLive()

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(<App />)
