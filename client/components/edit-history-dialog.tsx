import { formatFullDate } from '../lib/relative-time.js'
import type { PostVersionView } from '../lib/model.js'
import { Modal } from './modal.js'
import { RichText } from './rich-text.js'

type EditHistoryDialogProps = {
  /** The versions, the first first; undefined while they load. */
  versions: readonly PostVersionView[] | undefined
  onClose: () => void
}

/**
 * A post's edit history: every version, the newest first as a reader comes to it from the post as it now
 * reads, each dated and marked as the original or an edit.
 */
export function EditHistoryDialog({ versions, onClose }: EditHistoryDialogProps) {
  const newestFirst = versions ? [...versions].reverse() : undefined
  return (
    <Modal title="Edit history" onClose={onClose}>
      {!newestFirst ? (
        <p className="edit-version-note">Loading…</p>
      ) : (
        <ol className="edit-history" aria-label="Versions, the newest first">
          {newestFirst.map((version, i) => {
            const label = i === newestFirst.length - 1 ? 'Original' : i === 0 ? 'Current version, edited' : 'Edited'
            return (
              <li key={`${version.editedAt}:${i}`} className="edit-version">
                <p className="edit-version-head">
                  <strong>{label}</strong> <time dateTime={version.editedAt}>{formatFullDate(version.editedAt)}</time>
                </p>
                {version.spoilerText && <p className="edit-version-warning">Content warning: {version.spoilerText}</p>}
                {version.content && (
                  <p className="edit-version-text">
                    <RichText text={version.content} />
                  </p>
                )}
                {version.media.length > 0 && (
                  <p className="edit-version-note">
                    {version.media.length === 1 ? '1 image' : `${version.media.length} images`}
                    {version.media.some((image) => image.alt) &&
                      `: ${version.media.map((image) => image.alt || 'no description').join('; ')}`}
                  </p>
                )}
                {version.poll && <p className="edit-version-note">Poll: {version.poll.options.join(' / ')}</p>}
              </li>
            )
          })}
        </ol>
      )}
    </Modal>
  )
}
