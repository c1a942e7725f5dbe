import { useEffect, useLayoutEffect, useRef } from 'react'
import { useLocation } from 'wouter'
import { leaveTo } from '../lib/draft-guard.js'
import { createShortcutMatcher, isTypingTarget, type ShortcutAction } from '../lib/shortcuts.js'
import { paths } from '../paths.js'

const POST = 'article.post-card'

function posts(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>(`main ${POST}`))
}

/** The post the reader is on: the focused one, or the one holding the focus. */
function currentPost(): HTMLElement | null {
  return document.activeElement?.closest<HTMLElement>(POST) ?? null
}

function move(step: 1 | -1): void {
  const list = posts()
  const current = currentPost()
  const index = current ? list.indexOf(current) : -1
  const next = list[index === -1 ? 0 : Math.min(list.length - 1, Math.max(0, index + step))]
  next?.focus()
  next?.scrollIntoView?.({ block: 'nearest' })
}

/** Presses a button of the current post, as a click would. */
function press(selector: string): void {
  currentPost()?.querySelector<HTMLButtonElement>(selector)?.click()
}

/** Opens the current post's comments if closed, then puts the cursor in its reply box. */
function reply(): void {
  const post = currentPost()
  if (!post) return
  if (post.querySelector('.comment-action')?.getAttribute('aria-expanded') !== 'true') press('.comment-action')
  // The reply box appears with the next render.
  requestAnimationFrame(() => post.querySelector<HTMLTextAreaElement>('.comments textarea')?.focus())
}

/** The search box on screen: the side column's, or on a phone the one at the top of Explore and Search. */
function visibleSearchBox(): HTMLInputElement | undefined {
  const boxes = document.querySelectorAll<HTMLInputElement>('form[role="search"] input')
  // Browsers without checkVisibility (and jsdom) take the first.
  return [...boxes].find((box) => box.checkVisibility?.() ?? true)
}

type Options = { username: string; onCompose: () => void; onHelp: () => void }

/** The shortcuts of lib/shortcuts.ts, anywhere in the signed-in app, but never while typing or in a dialog. */
export function useKeyboardShortcuts({ username, onCompose, onHelp }: Options): void {
  const [, navigate] = useLocation()
  const run = useRef<Record<ShortcutAction, () => void>>(null)
  useLayoutEffect(() => {
    run.current = {
      next: () => move(1),
      previous: () => move(-1),
      open: () => {
        const post = currentPost()
        if (post && post === document.activeElement) post.click()
      },
      like: () => press('.like-action'),
      bookmark: () => press('.bookmark-action'),
      reply,
      compose: onCompose,
      goHome: () => leaveTo(paths.home.href(), navigate),
      goExplore: () => leaveTo(paths.explore.href(), navigate),
      goNotifications: () => leaveTo(paths.notifications.href(), navigate),
      goProfile: () => leaveTo(paths.profile.href(username), navigate),
      search: () => {
        const box = visibleSearchBox()
        if (box) return box.focus()
        // No box on this page of a phone: the search page has one, which appears with the next render.
        leaveTo(paths.search.href(), navigate)
        requestAnimationFrame(() => visibleSearchBox()?.focus())
      },
      help: onHelp,
    }
  })

  useEffect(() => {
    const match = createShortcutMatcher()
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return
      if (isTypingTarget(event.target) || document.body.classList.contains('has-modal')) return
      const action = match(event.key)
      if (!action) return
      event.preventDefault()
      run.current?.[action]()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
