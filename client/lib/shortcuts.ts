/**
 * The keyboard shortcuts, as on Twitter and Mastodon, in one table: a key, or a sequence such as
 * 'g' then 'h'. Adding one (g n for notifications, / for search) is a row here and a handler for its
 * action, which TypeScript then requires wherever the shortcuts are handled.
 */
export const SHORTCUTS = [
  { keys: ['j'], action: 'next', label: 'Next post', group: 'Posts' },
  { keys: ['k'], action: 'previous', label: 'Previous post', group: 'Posts' },
  { keys: ['o'], action: 'open', label: 'Open post', group: 'Posts' },
  { keys: ['l'], action: 'like', label: 'Like', group: 'Posts' },
  { keys: ['b'], action: 'bookmark', label: 'Bookmark', group: 'Posts' },
  { keys: ['r'], action: 'reply', label: 'Reply', group: 'Posts' },
  { keys: ['n'], action: 'compose', label: 'New post', group: 'Posts' },
  { keys: ['g', 'h'], action: 'goHome', label: 'Home', group: 'Go to' },
  { keys: ['g', 'e'], action: 'goExplore', label: 'Explore', group: 'Go to' },
  { keys: ['g', 'n'], action: 'goNotifications', label: 'Notifications', group: 'Go to' },
  { keys: ['g', 'p'], action: 'goProfile', label: 'Profile', group: 'Go to' },
  { keys: ['/'], action: 'search', label: 'Search', group: 'Go to' },
  { keys: ['?'], action: 'help', label: 'Show keyboard shortcuts', group: 'Help' },
] as const satisfies readonly { keys: readonly string[]; action: string; label: string; group: string }[]

export type ShortcutAction = (typeof SHORTCUTS)[number]['action']
export type Shortcut = { keys: readonly string[]; action: ShortcutAction; label: string; group: string }

/**
 * Feeds keys one at a time and answers the action a key completes, or null. A key that starts a
 * sequence waits for the next; a key that completes nothing starts over (and may itself start a sequence).
 */
export function createShortcutMatcher(table: readonly Shortcut[] = SHORTCUTS) {
  let pending: string[] = []
  const step = (key: string): ShortcutAction | null => {
    const typed = [...pending, key]
    const done = table.find((s) => s.keys.length === typed.length && s.keys.every((k, i) => k === typed[i]))
    if (done) {
      pending = []
      return done.action
    }
    const started = table.some((s) => s.keys.length > typed.length && typed.every((k, i) => s.keys[i] === k))
    if (started) {
      pending = typed
      return null
    }
    if (pending.length > 0) {
      pending = []
      return step(key)
    }
    return null
  }
  return step
}

/** Whether a key press belongs to what the reader is typing or doing, rather than to the shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  return (
    target.closest(
      'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"], [role="alertdialog"], [role="menu"]',
    ) !== null
  )
}
