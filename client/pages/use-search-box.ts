import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { paths, type SearchTab } from '../paths.js'

/** How long typing must pause before the results follow: a search for each key would be wasted. */
const SEARCH_DEBOUNCE_MS = 300

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

  useEffect(() => {
    // The address changed by other means than typing here: the box shows what is searched for.
    if (q === sent.current) return
    sent.current = q
    setText(q)
  }, [q])
  useEffect(() => () => clearTimeout(timer.current), [])

  const go = (typed: string) => {
    clearTimeout(timer.current)
    const query = typed.trim()
    const searching = here.current === paths.search.path
    // Nothing typed on another page is no search; on the search page it is the empty one.
    if (searching ? query === sent.current : query === '') return
    sent.current = query
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
    },
    onSubmit: () => go(text),
  }
}
