import { useState } from 'react'
import { showError } from '../state/toasts.js'

/**
 * A form's one call at a time: `busy` while it runs (to disable the button), and its failure shown as a
 * toast with the server's message. Resolves true when the work succeeded.
 */
export function useBusy(): [busy: boolean, run: (work: () => Promise<unknown>) => Promise<boolean>] {
  const [busy, setBusy] = useState(false)
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true)
    try {
      await work()
      return true
    } catch (error) {
      showError(error)
      return false
    } finally {
      setBusy(false)
    }
  }
  return [busy, run]
}
