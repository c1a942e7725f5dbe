/**
 * Registers the worker that keeps the app shell for offline use (client/sw/). It waits for the page's
 * load so that fetching the shell never competes with the first visit's own requests.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
      // The app works without it, only not offline.
      console.warn('the offline shell could not be set up', error)
    })
  }
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
