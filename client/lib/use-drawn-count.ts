import { useEffect, useState } from 'react'

/** Post cards drawn at once: as many as a phone's or a laptop's first screen holds under the composer. */
const FIRST_PART = 3
/** How many more are drawn each time the browser has had its turn: two cards stay well under 50 ms on a phone. */
const NEXT_PART = 2

/**
 * How many of a list's `total` items to draw now. A list is drawn a few items at a time, each part in
 * a task of its own after the one before has been painted, so the first screen shows early and no one
 * task holds the page for long: on a phone's CPU a post card takes several milliseconds to draw and lay
 * out, and twenty in one go would block input for a few hundred. Items drawn stay drawn as the list
 * grows; an emptied list starts again from the first part.
 */
export function useDrawnCount(total: number): number {
  const [drawn, setDrawn] = useState(FIRST_PART)
  // Adjusted while drawing, as for any state that follows a prop: the emptied list is never drawn with the old count.
  if (total === 0 && drawn !== FIRST_PART) setDrawn(FIRST_PART)
  useEffect(() => {
    if (drawn >= total) return
    const timer = setTimeout(() => setDrawn((count) => count + NEXT_PART), 0)
    return () => clearTimeout(timer)
  }, [drawn, total])
  return Math.min(drawn, total)
}
