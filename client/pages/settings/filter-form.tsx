import { useId, useState, type FormEvent } from 'react'
import { FILTER_CONTEXTS, type FilterContext, type FilterDraft, type KeywordFilter } from '../../api/filters.js'
import { FormError } from '../../components/form-error.js'
import { TextField } from '../../components/text-field.js'
import { useFormCall } from '../use-form-call.js'

const CONTEXT_LABELS: Record<FilterContext, string> = {
  home: 'Home and lists',
  notifications: 'Notifications',
  public: 'Explore, tags and search',
  account: 'Profiles',
  thread: 'A post and its comments',
}

/** How long a filter lasts, in seconds: '' keeps an edited filter's expiry as it is. */
const EXPIRIES = [
  { value: 'never', label: 'Never', seconds: null },
  { value: '3600', label: '1 hour', seconds: 3600 },
  { value: '86400', label: '1 day', seconds: 86400 },
  { value: '604800', label: '1 week', seconds: 604800 },
] as const

const ACTIONS = [
  { value: 'warn', label: "Warn: collapse the post behind the filter's title" },
  { value: 'hide', label: 'Hide: leave the post out' },
] as const

type KeywordRow = { key: number; id?: string; keyword: string; wholeWord: boolean }

type FilterFormProps = {
  /** The filter being edited; none: a new one. */
  editing?: KeywordFilter
  onSave: (draft: FilterDraft) => Promise<unknown>
  onCancel?: () => void
}

let nextKey = 0
const row = (keyword = '', wholeWord = true, id?: string): KeywordRow => ({
  key: nextKey++,
  keyword,
  wholeWord,
  ...(id ? { id } : {}),
})

/** A keyword filter's form, new or edited; the server's refusal shows above its button. */
export function FilterForm({ editing, onSave, onCancel }: FilterFormProps) {
  const [title, setTitle] = useState(editing?.title ?? '')
  const [rows, setRows] = useState<KeywordRow[]>(() =>
    editing ? editing.keywords.map((k) => row(k.keyword, k.whole_word, k.id)) : [row()],
  )
  const [contexts, setContexts] = useState<string[]>(editing ? editing.context : ['home', 'public'])
  const [action, setAction] = useState<'warn' | 'hide'>(editing?.filter_action === 'hide' ? 'hide' : 'warn')
  const [expiry, setExpiry] = useState(editing ? '' : 'never')
  const { busy, run, errorAt } = useFormCall()
  const formErrorId = useId()
  const formError = errorAt('form')
  const name = editing ? `Edit filter ${editing.title}` : 'New filter'

  const setRow = (key: number, change: Partial<KeywordRow>) =>
    setRows(rows.map((r) => (r.key === key ? { ...r, ...change } : r)))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const kept = rows.filter((r) => r.keyword.trim() !== '' || r.id)
    const dropped = (editing?.keywords ?? []).filter((k) => !kept.some((r) => r.id === k.id))
    const chosen = EXPIRIES.find((e) => e.value === expiry)
    const draft: FilterDraft = {
      title,
      context: FILTER_CONTEXTS.filter((c) => contexts.includes(c)),
      filter_action: action,
      ...(chosen ? { expires_in: chosen.seconds } : {}),
      keywords_attributes: [
        ...kept.map((r) => ({ ...(r.id ? { id: r.id } : {}), keyword: r.keyword.trim(), whole_word: r.wholeWord })),
        ...dropped.map((k) => ({ id: k.id, keyword: k.keyword, whole_word: k.whole_word, _destroy: true })),
      ],
    }
    void run(() => onSave(draft))
  }

  return (
    <form
      className="stack filter-form"
      aria-label={name}
      aria-describedby={formError ? formErrorId : undefined}
      onSubmit={submit}
    >
      <TextField label="Title" value={title} onValue={setTitle} maxLength={100} required />
      <fieldset className="filter-keywords">
        <legend>Keywords</legend>
        {rows.map((r, at) => (
          <div key={r.key} className="filter-keyword">
            <TextField
              label={`Keyword ${at + 1}`}
              value={r.keyword}
              maxLength={200}
              onValue={(keyword) => setRow(r.key, { keyword })}
            />
            <label className="setting-toggle">
              <input
                type="checkbox"
                checked={r.wholeWord}
                onChange={(event) => setRow(r.key, { wholeWord: event.currentTarget.checked })}
              />
              Whole word
            </label>
            <button
              type="button"
              className="button outline small"
              aria-label={`Remove keyword ${at + 1}`}
              onClick={() => setRows(rows.filter((other) => other.key !== r.key))}
            >
              Remove
            </button>
          </div>
        ))}
        <button type="button" className="button outline small" onClick={() => setRows([...rows, row()])}>
          Add keyword
        </button>
      </fieldset>
      <fieldset>
        <legend>Where</legend>
        {FILTER_CONTEXTS.map((context) => (
          <label key={context} className="setting-toggle">
            <input
              type="checkbox"
              checked={contexts.includes(context)}
              onChange={(event) =>
                setContexts(
                  event.currentTarget.checked ? [...contexts, context] : contexts.filter((c) => c !== context),
                )
              }
            />
            {CONTEXT_LABELS[context]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Action</legend>
        {ACTIONS.map(({ value, label }) => (
          <label key={value} className="setting-toggle">
            <input
              type="radio"
              name={`${formErrorId}-action`}
              checked={action === value}
              onChange={() => setAction(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${formErrorId}-expiry`}>Expires after</label>
        <select id={`${formErrorId}-expiry`} value={expiry} onChange={(event) => setExpiry(event.currentTarget.value)}>
          {editing && <option value="">Unchanged</option>}
          {EXPIRIES.map((e) => (
            <option key={e.value} value={e.value}>
              {e.label}
            </option>
          ))}
        </select>
      </div>
      <FormError id={formErrorId} message={formError} />
      <div className="row-end">
        {onCancel && (
          <button type="button" className="button outline" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button primary" disabled={busy}>
          {editing ? 'Save filter' : 'Add filter'}
        </button>
      </div>
    </form>
  )
}
