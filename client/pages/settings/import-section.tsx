import { useId, useState, type FormEvent } from 'react'
import { apiImportAccount } from '../../api/account.js'
import type { ImportReply } from '../../api/types.js'
import { showToast } from '../../state/toasts.js'
import { useBusy } from '../use-busy.js'

const LABELS = {
  posts: 'Posts',
  following: 'Follows',
  blocks: 'Blocks',
  mutes: 'Mutes',
  bookmarks: 'Bookmarks',
} as const

/** A Chirp archive or one of Mastodon's lists: what came in, and what was skipped. */
export function ImportSection() {
  const id = useId()
  const [file, setFile] = useState<File | null>(null)
  const [result, setResult] = useState<ImportReply | null>(null)
  const [busy, run] = useBusy()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!file) return
    void run(async () => {
      setResult(await apiImportAccount(file))
      showToast('Your data was imported.', 'success')
    })
  }

  return (
    <form className="stack" onSubmit={submit}>
      <p>
        A Chirp archive (.zip), or Mastodon&apos;s following_accounts.csv, blocked_accounts.csv or muted_accounts.csv.
        People and posts that are not on this server are skipped.
      </p>
      <div className="field">
        <label htmlFor={id}>File to import</label>
        <input
          id={id}
          type="file"
          accept=".zip,.csv,application/zip,text/csv"
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
      </div>
      <div className="row-end">
        <button type="submit" className="button outline" disabled={busy || !file}>
          Import
        </button>
      </div>
      {result && (
        <table className="import-counts" aria-label="What was imported">
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">Imported</th>
              <th scope="col">Skipped</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(LABELS).map(([kind, label]) => (
              <tr key={kind}>
                <th scope="row">{label}</th>
                <td>{result.imported[kind as keyof typeof LABELS]}</td>
                <td>{result.skipped[kind as keyof typeof LABELS]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </form>
  )
}
