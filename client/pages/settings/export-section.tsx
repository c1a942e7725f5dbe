import { useState } from 'react'
import { apiExportAccount } from '../../api/account.js'
import { errorStatus } from '../../api/http.js'
import { session } from '../../state/session.js'
import { showToast } from '../../state/toasts.js'
import { useBusy } from '../use-busy.js'

/** Hands a fetched file to the browser as a download. */
function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** "340 KB", "1.2 MB": a size as a person reads it. */
function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

/** A zip of everything the account made, with the bytes received as it streams in; once an hour. */
export function ExportSection() {
  const [busy, run] = useBusy()
  const [received, setReceived] = useState<number | null>(null)
  const exportNow = () =>
    run(async () => {
      setReceived(0)
      try {
        download(await apiExportAccount(setReceived), `chirp-${session.username ?? 'account'}.zip`)
      } catch (error) {
        if (errorStatus(error) !== 429) throw error
        showToast('You can download your data once an hour. Try again later.', 'error')
        return
      } finally {
        setReceived(null)
      }
      showToast('Your data was downloaded.', 'success')
    })

  return (
    <>
      <p>
        A zip of your profile, posts with their images, comments, likes, bookmarks, and the people you follow, who
        follow you, and whom you block and mute (as Mastodon lists them). Once an hour.
      </p>
      <div className="row-end">
        <button type="button" className="button outline" disabled={busy} onClick={() => void exportNow()}>
          Download your data
        </button>
      </div>
      <div role="status">
        {received !== null && (
          <>
            {/* No max: the zip is built as it is sent, so its size is not known ahead. */}
            <progress aria-label="Download progress" />
            <span>Downloading… {sizeText(received)}</span>
          </>
        )}
      </div>
    </>
  )
}
