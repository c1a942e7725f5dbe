import { useId, useState, type FormEvent } from 'react'
import { apiImportAccount } from '../../api/account.js'
import type { UploadProgress } from '../../api/http.js'
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

/** How each kind is counted in a sentence: one and many. */
const WORDS = {
  posts: ['post', 'posts'],
  following: ['follow', 'follows'],
  blocks: ['block', 'blocks'],
  mutes: ['mute', 'mutes'],
  bookmarks: ['bookmark', 'bookmarks'],
} as const

/** "3 posts, 2 follows and 1 bookmark", leaving out what is none; "nothing" when all are. */
function countsText(counts: ImportReply['imported']): string {
  const parts = (Object.keys(WORDS) as (keyof typeof WORDS)[])
    .filter((kind) => counts[kind] > 0)
    .map((kind) => `${counts[kind]} ${WORDS[kind][counts[kind] === 1 ? 0 : 1]}`)
  if (parts.length === 0) return 'nothing'
  const last = parts.pop() as string
  return parts.length === 0 ? last : `${parts.join(', ')} and ${last}`
}

/** Where an import is: sending the file (how much of it), the server importing, or not running. */
type Phase = { kind: 'idle' } | { kind: 'uploading'; progress: UploadProgress | null } | { kind: 'importing' }

/** A Chirp archive or one of Mastodon's lists: what came in, and what was skipped. */
export function ImportSection() {
  const id = useId()
  const [file, setFile] = useState<File | null>(null)
  const [result, setResult] = useState<ImportReply | null>(null)
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const [busy, run] = useBusy()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!file) return
    setResult(null)
    setPhase({ kind: 'uploading', progress: null })
    void run(async () => {
      try {
        const reply = await apiImportAccount(file, {
          onProgress: (progress) => setPhase({ kind: 'uploading', progress }),
          onUploaded: () => setPhase({ kind: 'importing' }),
        })
        setResult(reply)
      } finally {
        setPhase({ kind: 'idle' })
      }
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
      <div role="status">
        {phase.kind === 'uploading' && (
          <>
            <progress
              aria-label="Upload progress"
              {...(phase.progress ? { value: phase.progress.loaded, max: phase.progress.total } : {})}
            />
            <span>
              Uploading…
              {phase.progress && ` ${Math.floor((phase.progress.loaded / Math.max(1, phase.progress.total)) * 100)}%`}
            </span>
          </>
        )}
        {phase.kind === 'importing' && (
          <>
            <progress aria-label="Import progress" />
            <span>Importing…</span>
          </>
        )}
        {result && (
          <p>
            Imported {countsText(result.imported)}. Skipped {countsText(result.skipped)}.
          </p>
        )}
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
