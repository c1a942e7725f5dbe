import { useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { useSnapshot } from 'valtio'
import { BackTitle } from '../../components/back-title.js'
import { ConfirmDialog } from '../../components/confirm-dialog.js'
import { LoadError } from '../../components/load-error.js'
import { Spinner } from '../../components/spinner.js'
import { UserCard } from '../../components/user-card.js'
import { useDocumentTitle } from '../../lib/document-title.js'
import { displayNameOf, type UserSummaryView } from '../../lib/model.js'
import { paths } from '../../paths.js'
import { loadListPosts } from '../../state/lists.js'
import {
  addListMember,
  deletePeopleList,
  loadListMembers,
  loadPeopleLists,
  peopleLists,
  removeListMember,
  updatePeopleList,
} from '../../state/people-lists.js'
import { session } from '../../state/session.js'
import { showToast } from '../../state/toasts.js'
import { errorMessage } from '../../api/http.js'
import { useBusy } from '../use-busy.js'
import { PostList } from '../post-list.js'
import { ListForm } from './list-form.js'

const LIST_EMPTY = 'No posts from the people on this list yet.'

/**
 * `/lists/{id}`: one of my lists. Its timeline (its people's posts, new ones on top as they come), and
 * behind "Edit list" its name and settings, its people and the people I follow to add, and deleting it.
 */
export function ListPage({ id }: { id: string }) {
  const state = useSnapshot(peopleLists)
  const me = useSnapshot(session).user
  const [, navigate] = useLocation()
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [busy, run] = useBusy()
  const list = state.items.find((each) => each.id === id)
  useDocumentTitle(list?.title ?? 'List')

  useEffect(() => {
    if (!peopleLists.loaded) void loadPeopleLists()
    void loadListMembers(id).then(() => loadListPosts(id))
  }, [id])

  if (state.error) return <LoadError message={state.error} onRetry={() => void loadPeopleLists()} />
  if (!state.loaded) return <Spinner />
  if (!list)
    return (
      <>
        <BackTitle title="List" onBack={() => navigate(paths.lists.href())} />
        <p className="empty-state">This list does not exist.</p>
      </>
    )

  const memberIds = new Set(state.open.id === id ? state.open.members.map((member) => member.id) : [])
  const followed = me?.following ?? []
  const onList = followed.filter((user) => memberIds.has(user._id))
  const others = followed.filter((user) => !memberIds.has(user._id))

  const change = (work: () => Promise<void>, done: string) =>
    void run(async () => {
      try {
        await work()
        showToast(done, 'success')
      } catch (error) {
        showToast(errorMessage(error), 'error')
      }
    })

  return (
    <>
      <BackTitle title={list.title} onBack={() => navigate(paths.lists.href())}>
        <button
          type="button"
          className="button outline small"
          aria-expanded={editing}
          aria-controls="list-settings"
          onClick={() => setEditing(!editing)}
        >
          {editing ? 'Done' : 'Edit list'}
        </button>
      </BackTitle>
      {editing && (
        <div id="list-settings" className="list-settings stack">
          <section aria-labelledby="list-settings-title">
            <h2 id="list-settings-title" className="section-title">
              Settings
            </h2>
            <ListForm
              editing={list}
              onSave={async (draft) => {
                await updatePeopleList(id, draft)
                showToast('Your list was saved', 'success')
              }}
            />
            <button type="button" className="button danger" onClick={() => setDeleting(true)}>
              Delete list
            </button>
          </section>
          <section aria-labelledby="list-people-title">
            <h2 id="list-people-title" className="section-title">
              On this list
            </h2>
            {onList.length === 0 ? (
              <p className="form-note">Nobody yet. Add people you follow below.</p>
            ) : (
              <PeopleRows
                label="On this list"
                people={onList}
                action="Remove"
                actionLabel={(name) => `Remove ${name} from the list`}
                className="button outline small"
                busy={busy}
                onAction={(user) =>
                  change(() => removeListMember(id, user._id), `${displayNameOf(user)} was removed from the list`)
                }
              />
            )}
          </section>
          <section aria-labelledby="list-add-title">
            <h2 id="list-add-title" className="section-title">
              People you follow
            </h2>
            {others.length === 0 ? (
              <p className="form-note">
                {followed.length === 0 ? 'Follow people to add them to a list.' : 'Everyone you follow is on it.'}
              </p>
            ) : (
              <PeopleRows
                label="People you follow"
                people={others}
                action="Add"
                actionLabel={(name) => `Add ${name} to the list`}
                className="button primary small"
                busy={busy}
                onAction={(user) =>
                  change(() => addListMember(id, user._id), `${displayNameOf(user)} was added to the list`)
                }
              />
            )}
          </section>
        </div>
      )}
      <PostList name="listPosts" emptyText={LIST_EMPTY} load={(more) => void loadListPosts(id, more)} />
      {deleting && (
        <ConfirmDialog
          title="Delete this list?"
          text={`"${list.title}" goes, with its settings. The people on it stay followed.`}
          confirmLabel="Delete"
          tone="danger"
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false)
            void run(async () => {
              try {
                await deletePeopleList(id)
                showToast(`List "${list.title}" was deleted`, 'success')
                navigate(paths.lists.href())
              } catch (error) {
                showToast(errorMessage(error), 'error')
              }
            })
          }}
        />
      )}
    </>
  )
}

/** People of the list's settings, each with one button: remove from the list, or add to it. */
function PeopleRows({
  label,
  people,
  action,
  actionLabel,
  className,
  busy,
  onAction,
}: {
  label: string
  people: readonly UserSummaryView[]
  action: string
  actionLabel: (name: string) => string
  className: string
  busy: boolean
  onAction: (user: UserSummaryView) => void
}) {
  return (
    <ul className="list-people" aria-label={label}>
      {people.map((user) => (
        <li key={user._id} className="user-row">
          <UserCard user={user} />
          <button
            type="button"
            className={className}
            disabled={busy}
            aria-label={actionLabel(displayNameOf(user))}
            onClick={() => onAction(user)}
          >
            {action}
          </button>
        </li>
      ))}
    </ul>
  )
}
