import { useEffect, useState } from 'react'

/** Post cards drawn at once: as many as a phone's or a laptop's first screen holds under the composer. */
const FIRST_PART = 3
/** How many more are drawn each time the browser has had its turn: two cards stay well under 50 ms on a phone. */
const NEXT_PART = 2
/** Drawn at once around a post the reader comes back to: those that share the screen with it. */
const AROUND_ABOVE = 3
const AROUND_BELOW = 6

/** The part of a list drawn so far: items `from` up to (not including) `to`. */
export interface DrawnRange {
  from: number
  to: number
}

const startAt = (total: number, start: number): Turns =>
  start < 0
    ? { from: 0, to: FIRST_PART, down: true }
    : { from: Math.max(0, start - AROUND_ABOVE), to: Math.min(total, start + AROUND_BELOW), down: true }

/** A range and which way it grows next. */
interface Turns extends DrawnRange {
  down: boolean
}

/** The range one part larger: downwards while nothing is left above, upwards while nothing is left below, else in turns. */
function grown(now: Turns, total: number): Turns {
  const down = now.to < total && (now.from <= 0 || now.down)
  return down
    ? { from: now.from, to: now.to + NEXT_PART, down: false }
    : { from: Math.max(0, now.from - NEXT_PART), to: now.to, down: true }
}

/**
 * Which of a list's `total` items to draw now. A list is drawn a few items at a time, each part in a task
 * of its own after the one before has been painted, so the first screen shows early and no one task holds
 * the page for long: on a phone's CPU a post card takes several milliseconds to draw and lay out, and
 * twenty in one go would block input for a few hundred. A list starts at its top; one the reader comes
 * back to starts around the item at `start` (their place), and grows down and up from there in turns.
 * Items drawn stay drawn as the list grows; an emptied list starts again.
 */
export function useDrawnRange(total: number, start = -1): DrawnRange {
  const [range, setRange] = useState(() => startAt(total, start))
  // Adjusted while drawing, as for any state that follows a prop: the emptied list is never drawn with the old range.
  if (total === 0 && (range.from !== 0 || range.to !== FIRST_PART)) setRange(startAt(0, -1))
  const { from, to } = range
  useEffect(() => {
    if (from <= 0 && to >= total) return
    const timer = setTimeout(() => setRange((now) => grown(now, total)), 0)
    return () => clearTimeout(timer)
  }, [from, to, total])
  return { from: Math.min(from, total), to: Math.min(to, total) }
}
