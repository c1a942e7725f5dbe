import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import { Avatar } from '../../components/avatar.js'
import { PagedView } from '../../components/paged-view.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { displayNameOf } from '../../lib/model.js'
import { paths } from '../../paths.js'
import { decideSignup, loadPending, moderatedPeople } from '../../state/moderated-people.js'
import { StaffOnly } from './staff-only.js'

/** Signups waiting for approval (REGISTRATION=approval), oldest first, each approved or rejected in one click. */
function Pending() {
  const { pending } = useSnapshot(moderatedPeople)
  useEffect(() => {
    void loadPending()
  }, [])
  return (
    <section aria-labelledby="pending-title">
      <h2 id="pending-title" className="section-title">
        Waiting for approval
      </h2>
      <PagedView
        state={pending}
        label="Signups waiting for approval"
        empty="Nobody is waiting for approval."
        end="That's everyone waiting."
        onLoad={(more) => void loadPending(more)}
      >
        {pending.items.map((user) => {
          const name = displayNameOf(user)
          return (
            <li key={user._id} className="moderation-row">
              <Avatar src={user.avatarURL} name={name} size="sm" decorative />
              <Link href={paths.moderationUser.href(user._id)} className="user-names">
                <span className="author-name">{name}</span>
                <span className="author-handle">@{user.username}</span>
              </Link>
              <div className="row-end">
                <button
                  type="button"
                  className="button outline small"
                  aria-label={`Reject @${user.username}`}
                  onClick={() => void decideSignup(user._id, false)}
                >
                  Reject
                </button>
                <button
                  type="button"
                  className="button dark small"
                  aria-label={`Approve @${user.username}`}
                  onClick={() => void decideSignup(user._id, true)}
                >
                  Approve
                </button>
              </div>
            </li>
          )
        })}
      </PagedView>
    </section>
  )
}

/** /moderation/users: the signups waiting; a person's own page opens from a report, the log or this list. */
export function ModerationPeoplePage() {
  useDocumentTitle('People · Moderation')
  return (
    <StaffOnly title="People">
      <Pending />
    </StaffOnly>
  )
}
