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

/** A zip of everything the account made; once an hour. */
export function ExportSection() {
  const [busy, run] = useBusy()
  const exportNow = () =>
    run(async () => {
      try {
        download(await apiExportAccount(), `chirp-${session.username ?? 'account'}.zip`)
      } catch (error) {
        if (errorStatus(error) !== 429) throw error
        showToast('You can download your data once an hour. Try again later.', 'error')
        return
      }
      showToast('Your data is downloading.', 'success')
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
    </>
  )
}
