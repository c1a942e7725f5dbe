import { useId } from 'react'
import { Link } from 'wouter'
import { paths } from '../paths.js'

type TrendingTagsProps = {
  tags: readonly { tag: string; posts: number }[]
  loaded: boolean
  /** The tags could not be read: a side panel has nothing to say then, so it is left out. */
  failed: boolean
}

/** The tags used most in the last 7 days, each a link to its posts. */
export function TrendingTags({ tags, loaded, failed }: TrendingTagsProps) {
  const heading = useId()
  if (failed && tags.length === 0) return null
  return (
    <section className="panel trending" aria-labelledby={heading}>
      <h2 className="panel-title" id={heading}>
        Trending
      </h2>
      {loaded && tags.length === 0 && <p className="empty-state small">Nothing is trending this week.</p>}
      <ol className="trending-list">
        {tags.map(({ tag, posts }) => (
          <li key={tag}>
            <Link href={paths.tag.href(tag)} className="trending-tag">
              <span className="trending-name">#{tag}</span>
              <span className="trending-count">
                {posts} {posts === 1 ? 'post' : 'posts'}
              </span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  )
}
