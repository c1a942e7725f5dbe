/** Debian's Chromium, which the browser tests and the Lighthouse leg drive; no browser is downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Headless, and quiet: nothing of its own on the network, so every request measured is the app's. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
