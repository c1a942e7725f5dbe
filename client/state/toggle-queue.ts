import type { ErrorCode } from '../../common/error-codes.js'
import { errorCode } from '../api/http.js'

/**
 * One on/off intent a key (a post's like, a bookmark, a follow), as Bluesky's client queues them: the
 * button shows the latest click at once, at most one write a key is on its way, and when it comes back
 * the next write goes only if the latest intent differs from what the server now holds. However the
 * clicks and the answers interleave, the button ends where the server is: a failed write shows the
 * server's state again, never the intent it failed to make.
 */
export interface ToggleWrites<Reply> {
  /** One write, to `on`. */
  send(key: string, on: boolean): Promise<Reply>
  /** The server's answer to the last write, once no other intent waits: what to show. */
  settle(key: string, reply: Reply): void
  /**
   * What the server holds is `on`, and no answer of its shows it: a write the latest click asked for
   * `failed` (with `error`), one the latest click no longer asks for failed (`withdrawn`: nothing to say),
   * or the server `already` held what the write asked for (its counts unknown).
   */
  restore(key: string, on: boolean, how: 'failed' | 'withdrawn' | 'already', error?: unknown): void
  /** Refusals saying the server already holds the state asked for: on (`already_liked`), and off. */
  already: { on: ErrorCode[]; off: ErrorCode[] }
}

interface Intent {
  /** What the server holds, as far as its answers tell. */
  held: boolean
  /** What the latest click asked for. */
  wanted: boolean
}

/**
 * A queue of toggles: `toggle(key, on, held)` records a click (`held`: what was shown before it) and
 * resolves once settled; `forget()` drops every intent, as a sign-out does (a write on its way still
 * ends, but nothing waits behind it).
 */
export function toggleQueue<Reply>(writes: ToggleWrites<Reply>) {
  const intents = new Map<string, Intent>()

  async function drain(key: string, intent: Intent): Promise<void> {
    while (intent.wanted !== intent.held) {
      const target = intent.wanted
      try {
        const reply = await writes.send(key, target)
        intent.held = target
        if (intent.wanted === target) writes.settle(key, reply)
      } catch (error) {
        const code = errorCode(error) as ErrorCode | undefined
        // A refusal that says the server already holds the target is as good as the write.
        const already = code !== undefined && writes.already[target ? 'on' : 'off'].includes(code)
        if (already) intent.held = target
        if (intent.wanted !== intent.held) {
          if (already) continue
          intent.wanted = intent.held
          writes.restore(key, intent.held, 'failed', error)
        } else {
          writes.restore(key, intent.held, already ? 'already' : 'withdrawn')
        }
      }
    }
  }

  async function toggle(key: string, on: boolean, held: boolean): Promise<void> {
    const running = intents.get(key)
    if (running) {
      running.wanted = on
      return
    }
    const intent = { held, wanted: on }
    intents.set(key, intent)
    try {
      await drain(key, intent)
    } finally {
      if (intents.get(key) === intent) intents.delete(key)
    }
  }

  return { toggle, forget: () => intents.clear() }
}
