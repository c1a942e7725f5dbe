import { proxy, ref } from 'valtio'
import { errorMessage, isTransient } from '../api/http.js'

export type ToastKind = 'success' | 'error' | 'info'
export type ToastAction = { label: string; run: () => void }
export type Toast = { id: number; kind: ToastKind; text: string; dismissed: boolean; action?: ToastAction }

/** At most 20 kept, a dismissed one removed 1 second later (time for its exit animation). */
export const MAX_TOASTS = 20
const REMOVE_AFTER_MS = 1000
const AUTO_DISMISS_MS = 5000

export const toasts = proxy({ items: [] as Toast[] })

let nextId = 1
const timers = new Set<ReturnType<typeof setTimeout>>()

function later(ms: number, run: () => void): void {
  const timer = setTimeout(() => {
    timers.delete(timer)
    run()
  }, ms)
  timers.add(timer)
}

export function showToast(text: string, kind: ToastKind = 'info', action?: ToastAction): void {
  const id = nextId++
  // The action is kept as it is (a function has nothing to watch).
  toasts.items.push({ id, kind, text, dismissed: false, ...(action && { action: ref(action) }) })
  if (toasts.items.length > MAX_TOASTS) toasts.items.splice(0, toasts.items.length - MAX_TOASTS)
  later(AUTO_DISMISS_MS, () => dismissToast(id))
}

/**
 * A failed call, in plain words (the server's message, reworded for people by
 * api/error-text.ts). With `retry`, a failure that may pass (no connection, a busy server) offers Try again;
 * `action` ("like this post") names what a rate limit held back.
 */
export function showError(error: unknown, retry?: () => void, action?: string): void {
  showToast(
    errorMessage(error, action),
    'error',
    retry && isTransient(error) ? { label: 'Try again', run: retry } : undefined,
  )
}

/** Runs a toast's action and dismisses it. */
export function runToastAction(id: number): void {
  const toast = toasts.items.find((t) => t.id === id)
  if (!toast?.action || toast.dismissed) return
  dismissToast(id)
  toast.action.run()
}

export function dismissToast(id: number): void {
  const toast = toasts.items.find((t) => t.id === id)
  if (!toast || toast.dismissed) return
  toast.dismissed = true
  later(REMOVE_AFTER_MS, () => {
    toasts.items = toasts.items.filter((t) => t.id !== id)
  })
}

export function reset(): void {
  for (const timer of timers) clearTimeout(timer)
  timers.clear()
  toasts.items = []
}
