import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { paths, type SearchTab } from '../paths.js'
import type { Suggestion } from '../lib/typeahead.js'
import { setPeopleFirst } from '../state/search.js'
import { suggestPeople, suggestTags } from './suggest.js'

/** How long typing must pause before the results follow: a search for each key would be wasted. */
const SEARCH_DEBOUNCE_MS = 300
/** Suggestions come sooner: they are a few names, and they are what is read while typing. */
const SUGGEST_DEBOUNCE_MS = 150

/** What the box suggests for its text: tags after `#`, else the people whose names it begins. */
function suggestFor(text: string): Promise<Suggestion[]> {
  const query = text.trim()
  if (query.startsWith('#')) return query.length > 1 ? suggestTags(query.slice(1)) : Promise.resolve([])
  return query.replace(/^@/, '') ? suggestPeople(query) : Promise.resolve([])
}

/** The query and tab of `/search?q=&type=`, as the address says them. */
export function readSearch(search: string): { q: string; tab: SearchTab } {
  const params = new URLSearchParams(search)
  return { q: (params.get('q') ?? '').trim(), tab: params.get('type') === 'users' ? 'users' : 'posts' }
}

/**
 * What the frame's search boxes share: the text typed, which follows the address on the search page
 * (a reload, Back, a link), and sends the reader there as they type. The first search from another page
 * is a new entry in the history, so Back returns to that page; the rest replace it, so Back does not
 * step through every letter.
 */
export function useSearchBox() {
  const [location, navigate] = useLocation()
  const here = useRef(location)
  const onSearchPage = location === paths.search.path
  const addressed = readSearch(useSearch())
  const q = onSearchPage ? addressed.q : ''
  const tab = useRef(addressed.tab)
  // Read by the debounced search, which runs after this render has been committed.
  useLayoutEffect(() => {
    here.current = location
    tab.current = onSearchPage ? addressed.tab : 'posts'
  })

  const [text, setText] = useState(q)
  const sent = useRef(q)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const [suggestions, setSuggestions] = useState<Suggestion[]>([])
  const suggestTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const asked = useRef(0)
  const dismiss = () => {
    asked.current += 1
    clearTimeout(suggestTimer.current)
    setSuggestions([])
  }

  useEffect(() => {
    // The address changed by other means than typing here: the box shows what is searched for.
    if (q === sent.current) return
    sent.current = q
    setText(q)
  }, [q])
  useEffect(
    () => () => {
      clearTimeout(timer.current)
      clearTimeout(suggestTimer.current)
    },
    [],
  )

  const go = (typed: string) => {
    clearTimeout(timer.current)
    const query = typed.trim()
    const searching = here.current === paths.search.path
    // Nothing typed on another page is no search; on the search page it is the empty one.
    if (searching ? query === sent.current : query === '') return
    sent.current = query
    // A search started from another page has no tab chosen yet: the page shows people first if any match.
    if (!searching) setPeopleFirst(true)
    // From elsewhere, `@name` is looking for a person.
    const type = searching ? tab.current : query.startsWith('@') ? 'users' : 'posts'
    navigate(paths.search.href({ q: query, type }), { replace: searching })
  }

  return {
    value: text,
    onChange: (value: string) => {
      setText(value)
      clearTimeout(timer.current)
      timer.current = setTimeout(() => go(value), SEARCH_DEBOUNCE_MS)
      dismiss()
      const ask = asked.current
      suggestTimer.current = setTimeout(() => {
        suggestFor(value).then(
          (found) => ask === asked.current && setSuggestions(found),
          () => ask === asked.current && setSuggestions([]),
        )
      }, SUGGEST_DEBOUNCE_MS)
    },
    onSubmit: () => {
      dismiss()
      go(text)
    },
    suggestions,
    onPick: (picked: Suggestion) => {
      dismiss()
      clearTimeout(timer.current)
      navigate(picked.kind === 'person' ? paths.profile.href(picked.username) : paths.tag.href(picked.tag))
    },
    onDismiss: dismiss,
  }
}
