import { useId } from 'react'
import { Menu } from './menu.js'
import { RepostIcon } from './icons.js'
import type { ShareLimit } from '../lib/audience.js'

type RepostMenuProps = {
  reposted: boolean
  repostCount: number
  onToggleRepost: () => void
  onQuote: () => void
  /**
   * Why this reader may not share the post, when they may not (DECISIONS §12, §15): `repost` when it
   * cannot be reposted, `quote` when it cannot be quoted.
   */
  limit?: ShareLimit | null | undefined
}

const plural = (n: number) => `${n} repost${n === 1 ? '' : 's'}`

/** The Repost action: a small menu to repost (or undo it) or to quote, as Mastodon and Bluesky offer. */
export function RepostMenu({ reposted, repostCount, onToggleRepost, onQuote, limit }: RepostMenuProps) {
  const reasonId = useId()
  const face = (
    <>
      <RepostIcon />
      <span aria-hidden="true">{repostCount}</span>
      <span className="visually-hidden">{`${reposted ? 'Reposted' : 'Repost'}, ${plural(repostCount)}`}</span>
    </>
  )
  // Neither is possible: the button stays where it is, and says why to whoever reaches it.
  if (limit?.repost && limit.quote)
    return (
      <>
        <button
          type="button"
          className="action repost-action is-unavailable"
          aria-disabled
          aria-describedby={reasonId}
          title={limit.quote}
        >
          {face}
        </button>
        <span id={reasonId} hidden>
          {limit.quote}
        </span>
      </>
    )
  return (
    <Menu
      label="Repost options"
      triggerClassName={`action repost-action${reposted ? ' is-on' : ''}`}
      trigger={face}
      items={[
        limit?.repost
          ? { label: 'Repost', onSelect: onToggleRepost, unavailable: limit.repost }
          : { label: reposted ? 'Undo repost' : 'Repost', onSelect: onToggleRepost },
        limit?.quote
          ? { label: 'Quote', onSelect: onQuote, unavailable: limit.quote }
          : { label: 'Quote', onSelect: onQuote },
      ]}
    />
  )
}
