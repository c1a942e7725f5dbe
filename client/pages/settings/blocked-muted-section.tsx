import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { Link } from 'wouter'
import type { UserSummary } from '../../api/types.js'
import { Avatar } from '../../components/avatar.js'
import { EmptyState } from '../../components/empty-state.js'
import { displayNameOf } from '../../lib/model.js'
import { formatFullDate } from '../../lib/relative-time.js'
import { paths } from '../../paths.js'
import { loadRelations, relations, unblockPerson, unmutePerson } from '../../state/relations.js'

/** One person with the button that undoes the block or the mute. */
function Row({ user, note, undo, onUndo }: { user: UserSummary; note?: string; undo: string; onUndo: () => void }) {
  const name = displayNameOf(user)
  return (
    <li className="person-row">
      <Link href={paths.profile.href(user.username)} className="post-author">
        <Avatar src={user.avatarURL} name={name} size="sm" />
        <span className="author-name">{name}</span>
        <span className="author-handle">@{user.username}</span>
      </Link>
      {note && <span className="author-handle">{note}</span>}
      <button type="button" className="button outline" aria-label={`${undo} @${user.username}`} onClick={onUndo}>
        {undo}
      </button>
    </li>
  )
}

/** Settings: whom I block and whom I mute, each with its undo (the page gives it its section and heading). */
export function BlockedMutedSection() {
  const { blocks, mutes, loaded } = useSnapshot(relations)
  useEffect(() => {
    void loadRelations()
  }, [])
  return (
    <>
      <h3>Blocked</h3>
      {loaded && blocks.length === 0 ? (
        <EmptyState text="You have not blocked anyone." />
      ) : (
        <ul aria-label="Blocked people" className="people-list">
          {blocks.map((user) => (
            <Row key={user._id} user={user} undo="Unblock" onUndo={() => void unblockPerson(user)} />
          ))}
        </ul>
      )}
      <h3>Muted</h3>
      {loaded && mutes.length === 0 ? (
        <EmptyState text="You have not muted anyone." />
      ) : (
        <ul aria-label="Muted people" className="people-list">
          {mutes.map((user) => (
            <Row
              key={user._id}
              user={user}
              note={user.mutedUntil ? `until ${formatFullDate(user.mutedUntil)}` : undefined}
              undo="Unmute"
              onUndo={() => void unmutePerson(user)}
            />
          ))}
        </ul>
      )}
    </>
  )
}
