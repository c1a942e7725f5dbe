import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { insertAt, insertSuggestion, tokenAt, type Suggestion, type Token } from '../lib/typeahead.js'
import { useTypeaheadKeys } from './typeahead-list.js'

/** People for `@` and tags for `#`, those whose name begins with `query`. */
export type Suggest = (trigger: '@' | '#', query: string) => Promise<Suggestion[]>

/** How long typing must pause before suggestions are asked for. */
const SUGGEST_DEBOUNCE_MS = 150

/**
 * A text box's typeahead for mentions and tags, and where typed or picked text goes: at the caret. The
 * @name or #tag the caret ends brings suggestions; picking one writes it in whole; an emoji goes in
 * where the caret (or the selection) was, and the caret follows it.
 */
export function useComposerTypeahead(
  box: RefObject<HTMLTextAreaElement | null>,
  text: string,
  setText: (text: string) => void,
  suggest: Suggest | undefined,
) {
  const [token, setToken] = useState<Token | null>(null)
  const [options, setOptions] = useState<Suggestion[]>([])
  const asked = useRef(0)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const caretAfter = useRef<number | null>(null)
  useEffect(() => () => clearTimeout(timer.current), [])
  useLayoutEffect(() => {
    const field = box.current
    if (caretAfter.current === null || !field) return
    field.focus()
    field.setSelectionRange(caretAfter.current, caretAfter.current)
    caretAfter.current = null
  }, [text, box])

  const close = () => {
    asked.current += 1
    clearTimeout(timer.current)
    setToken(null)
    setOptions([])
  }
  /** The caret moved or the text changed: what is being typed there now. */
  const follow = (value: string, caret: number) => {
    const found = suggest && tokenAt(value, caret)
    if (!found) return close()
    if (token && found.trigger === token.trigger && found.query === token.query && found.start === token.start) return
    setToken(found)
    const ask = ++asked.current
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      suggest(found.trigger, found.query).then(
        (list) => ask === asked.current && setOptions(list),
        () => ask === asked.current && setOptions([]),
      )
    }, SUGGEST_DEBOUNCE_MS)
  }
  const pick = (picked: Suggestion) => {
    const field = box.current
    if (!token || !field) return
    const next = insertSuggestion(text, token, field.selectionStart, picked)
    caretAfter.current = next.caret
    setText(next.text)
    close()
  }
  const keys = useTypeaheadKeys(options, pick, close)
  /** Puts `insert` (an emoji) where the caret was, or over what was selected. */
  const insert = (insert: string, max: number) => {
    const field = box.current
    const start = field?.selectionStart ?? text.length
    const end = field?.selectionEnd ?? text.length
    const next = insertAt(text, start, end, insert)
    if (next.text.length > max) return
    caretAfter.current = next.caret
    setText(next.text)
  }
  return {
    open: token !== null && options.length > 0,
    options,
    active: keys.active,
    onKeyDown: keys.onKeyDown,
    follow,
    pick,
    close,
    insert,
  }
}
