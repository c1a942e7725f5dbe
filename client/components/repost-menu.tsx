import { Menu } from './menu.js'
import { RepostIcon } from './icons.js'

type RepostMenuProps = {
  reposted: boolean
  repostCount: number
  onToggleRepost: () => void
  onQuote: () => void
}

const plural = (n: number) => `${n} repost${n === 1 ? '' : 's'}`

/** The Repost action: a small menu to repost (or undo it) or to quote, as Mastodon and Bluesky offer. */
export function RepostMenu({ reposted, repostCount, onToggleRepost, onQuote }: RepostMenuProps) {
  return (
    <Menu
      label="Repost options"
      triggerClassName={`action repost-action${reposted ? ' is-on' : ''}`}
      trigger={
        <>
          <RepostIcon />
          <span aria-hidden="true">{repostCount}</span>
          <span className="visually-hidden">{`${reposted ? 'Reposted' : 'Repost'}, ${plural(repostCount)}`}</span>
        </>
      }
      items={[
        { label: reposted ? 'Undo repost' : 'Repost', onSelect: onToggleRepost },
        { label: 'Quote', onSelect: onQuote },
      ]}
    />
  )
}
