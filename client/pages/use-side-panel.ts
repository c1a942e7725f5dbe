import { useMediaQuery } from '../lib/use-media-query.js'

/** Whether the frame's side panel shows: layout.css gives it a column from this width up. */
export function useSidePanel(): boolean {
  return useMediaQuery('(min-width: 961px)')
}
