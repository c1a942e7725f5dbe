import { proxy } from 'valtio'
import { errorMessage } from '../api/http.js'

export type ToastKind = 'success' | 'error' | 'info'
export type Toast = { id: number; kind: ToastKind; text: string; dismissed: boolean }

/** SPEC §9: at most 20 kept, a dismissed one removed 1 second later (time for its exit animation). */
export const MAX_TOASTS = 20
export const REMOVE_AFTER_MS = 1000
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

export function showToast(text: string, kind: ToastKind = 'info'): void {
  const id = nextId++
  toasts.items.push({ id, kind, text, dismissed: false })
  if (toasts.items.length > MAX_TOASTS) toasts.items.splice(0, toasts.items.length - MAX_TOASTS)
  later(AUTO_DISMISS_MS, () => dismissToast(id))
}

/** A failed call: the server's own message, as DECISIONS §2 asks. */
export function showError(error: unknown): void {
  showToast(errorMessage(error), 'error')
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
