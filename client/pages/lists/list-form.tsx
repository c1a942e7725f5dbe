import { useId, useState, type FormEvent } from 'react'
import type { PeopleList, PeopleListDraft, RepliesPolicy } from '../../api/lists.js'
import { FormError } from '../../components/form-error.js'
import { TextField } from '../../components/text-field.js'
import { useFormCall } from '../use-form-call.js'

const POLICIES: { value: RepliesPolicy; label: string }[] = [
  { value: 'list', label: "Replies to the list's people" },
  { value: 'followed', label: 'Replies to anyone I follow' },
  { value: 'none', label: 'No replies' },
]

type ListFormProps = {
  /** The list being changed; none for a new one. */
  editing?: PeopleList | undefined
  onSave: (draft: PeopleListDraft) => Promise<unknown>
  onCancel?: (() => void) | undefined
}

/** A list's form, new or changed: its title, which replies it shows, and whether it keeps its people out of Home. */
export function ListForm({ editing, onSave, onCancel }: ListFormProps) {
  const [title, setTitle] = useState(editing?.title ?? '')
  const [policy, setPolicy] = useState<RepliesPolicy>(editing?.replies_policy ?? 'list')
  const [exclusive, setExclusive] = useState(editing?.exclusive ?? false)
  const { busy, run, errorAt } = useFormCall()
  const id = useId()
  const formError = errorAt('form')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await onSave({ title: title.trim(), replies_policy: policy, exclusive })
      if (!editing) {
        setTitle('')
        setPolicy('list')
        setExclusive(false)
      }
    })
  }

  return (
    <form
      className="stack list-form"
      aria-label={editing ? `Edit list ${editing.title}` : 'New list'}
      aria-describedby={formError ? `${id}-error` : undefined}
      onSubmit={submit}
    >
      <TextField label="List name" value={title} onValue={setTitle} maxLength={100} required />
      <div className="field">
        <label htmlFor={`${id}-replies`}>Show replies</label>
        <select
          id={`${id}-replies`}
          value={policy}
          onChange={(event) => setPolicy(event.currentTarget.value as RepliesPolicy)}
        >
          {POLICIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <label className="setting-toggle">
        <input type="checkbox" checked={exclusive} onChange={(event) => setExclusive(event.currentTarget.checked)} />
        Show these people only in this list, not on Home
      </label>
      <FormError id={`${id}-error`} message={formError} />
      <div className="row-end">
        {onCancel && (
          <button type="button" className="button outline" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button primary" disabled={busy || title.trim() === ''}>
          {editing ? 'Save list' : 'Create list'}
        </button>
      </div>
    </form>
  )
}
