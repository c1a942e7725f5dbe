import type { PostDraft } from './post-form.js'
import { PostFormModal, type PostModalHandlers } from './post-form-modal.js'

type EditPostModalProps = PostModalHandlers & { initial: PostDraft }

/** The Edit Post modal: closes once the update is saved; closing it with changes unsaved asks first. */
export function EditPostModal(props: EditPostModalProps) {
  return <PostFormModal title="Edit Post" submitLabel="Update" busyLabel="Saving…" {...props} />
}
