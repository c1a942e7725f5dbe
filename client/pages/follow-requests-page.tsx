import { useEffect, useRef } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import type { UserSummary } from '../api/types.js'
import { PagedView } from '../components/paged-view.js'
import { UserCard } from '../components/user-card.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { paths } from '../paths.js'
import { answerFollowRequest, follows, loadFollowRequests } from '../state/follows.js'
import { session } from '../state/session.js'

/** The two answers to a request, as their buttons say them. */
const ANSWERS = [
  { word: 'Accept', accept: true, look: 'dark' },
  { word: 'Reject', accept: false, look: 'outline' },
] as const

/**
 * The people asking to follow my locked account, the oldest request first, each with Accept and Reject
 * (DECISIONS §12). New requests join live. An answered request leaves the list, and the focus goes on to
 * the next one (or to the heading), never lost with the row.
 */
export function FollowRequestsPage() {
  useDocumentTitle('Follow requests')
  const { requests, answering } = useSnapshot(follows)
  const locked = useSnapshot(session).user?.locked === true
  const listRef = useRef<HTMLDivElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    void loadFollowRequests()
  }, [])

  const answer = async (asker: UserSummary, accept: boolean, at: number) => {
    if (!(await answerFollowRequest(asker, accept))) return
    // The list has drawn without the row by the next frame: the row now at its place, or the one above it.
    requestAnimationFrame(() => {
      const rows = listRef.current?.querySelectorAll('li') ?? []
      const next = rows[Math.min(at, rows.length - 1)]
      ;(next?.querySelector('button') ?? headingRef.current)?.focus()
    })
  }

  return (
    <>
      <h1 className="page-title" ref={headingRef} tabIndex={-1}>
        Follow requests
      </h1>
      <p className="page-intro">
        {locked
          ? 'Your account is locked: people you accept follow you and see your followers-only posts.'
          : 'Your account is not locked, so anyone can follow you.'}{' '}
        <Link href={`${paths.settings.href()}#audience`}>Change it in Settings</Link>
      </p>
      <div ref={listRef}>
        <PagedView
          state={requests}
          label="Follow requests"
          empty="Nobody is asking to follow you."
          end="That's every request."
          onLoad={(more) => void loadFollowRequests(more)}
        >
          {requests.items.map((asker, at) => (
            <li key={asker._id} className="moderation-row follow-request">
              <UserCard user={asker} />
              {ANSWERS.map(({ word, accept, look }) => (
                <button
                  key={word}
                  type="button"
                  className={`button ${look} small`}
                  aria-label={`${word} @${asker.username}`}
                  disabled={answering[asker._id] === true}
                  onClick={() => void answer(asker, accept, at)}
                >
                  {word}
                </button>
              ))}
            </li>
          ))}
        </PagedView>
      </div>
    </>
  )
}
