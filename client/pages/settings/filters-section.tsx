import { useEffect, useState } from 'react'
import { apiCreateFilter, apiDeleteFilter, apiFilters, apiUpdateFilter, type KeywordFilter } from '../../api/filters.js'
import { errorMessage } from '../../api/http.js'
import { ConfirmDialog } from '../../components/confirm-dialog.js'
import { showToast } from '../../state/toasts.js'
import { useBusy } from '../use-busy.js'
import { FilterForm } from './filter-form.js'

const CONTEXT_NAMES: Record<string, string> = {
  home: 'home',
  public: 'public',
  account: 'profiles',
  thread: 'posts',
  notifications: 'notifications',
}

/** When a filter stops: never, or its date. */
function expiryText(expiresAt: string | null): string {
  return expiresAt ? `Expires ${new Date(expiresAt).toLocaleString()}` : 'Never expires'
}

/**
 * My keyword filters (DECISIONS §15): a post matching a `warn` one is collapsed behind its title, one
 * matching a `hide` one left out, in the places each names.
 */
export function FiltersSection() {
  const [filters, setFilters] = useState<KeywordFilter[] | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<KeywordFilter | null>(null)
  const [busy, run] = useBusy()

  useEffect(() => {
    apiFilters().then(setFilters, (error: unknown) => setLoadError(errorMessage(error)))
  }, [])

  const remove = async (filter: KeywordFilter) => {
    setDeleting(null)
    if (await run(() => apiDeleteFilter(filter.id))) {
      setFilters((all) => (all ?? []).filter((f) => f.id !== filter.id))
      showToast(`Filter "${filter.title}" was deleted`, 'success')
    }
  }

  if (loadError) return <p role="alert">{loadError}</p>
  if (!filters) return <p>Loading your filters…</p>
  return (
    <>
      <p>Posts with these words are collapsed or left out where you choose. Your own posts are never filtered.</p>
      {filters.length === 0 ? (
        <p>You have no filters.</p>
      ) : (
        <ul className="filter-list" aria-label="Your filters">
          {filters.map((filter) =>
            editing === filter.id ? (
              <li key={filter.id}>
                <FilterForm
                  editing={filter}
                  onCancel={() => setEditing(null)}
                  onSave={async (draft) => {
                    const saved = await apiUpdateFilter(filter.id, draft)
                    setFilters((all) => (all ?? []).map((f) => (f.id === saved.id ? saved : f)))
                    setEditing(null)
                    showToast('Your filter was saved', 'success')
                  }}
                />
              </li>
            ) : (
              <li key={filter.id} className="filter-item">
                <h3>{filter.title}</h3>
                <p>
                  {filter.keywords.map((k) => (k.whole_word ? k.keyword : `${k.keyword} (within words)`)).join(', ')}
                </p>
                <p className="form-note">
                  {filter.filter_action === 'hide' ? 'Hide' : 'Warn'} in{' '}
                  {filter.context.map((c) => CONTEXT_NAMES[c] ?? c).join(', ')} · {expiryText(filter.expires_at)}
                </p>
                <div className="row-end">
                  <button
                    type="button"
                    className="button outline small"
                    aria-label={`Edit ${filter.title}`}
                    onClick={() => setEditing(filter.id)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button outline small"
                    aria-label={`Delete ${filter.title}`}
                    disabled={busy}
                    onClick={() => setDeleting(filter)}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
      <h3>Add a filter</h3>
      <FilterForm
        key={filters.length}
        onSave={async (draft) => {
          const saved = await apiCreateFilter(draft)
          setFilters((all) => [...(all ?? []), saved])
          showToast('Your filter was added', 'success')
        }}
      />
      {deleting && (
        <ConfirmDialog
          title="Delete filter?"
          text={`Posts matching "${deleting.title}" will show again.`}
          confirmLabel="Delete"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  )
}
