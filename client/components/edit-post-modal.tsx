import { Modal } from './modal.js'
import { PostForm, type PostDraft } from './post-form.js'

type EditPostModalProps = {
  initial: PostDraft
  onSubmit: (draft: PostDraft) => Promise<boolean>
  onUpload: (file: File) => Promise<string | null>
  onFileError: (message: string) => void
  onClose: () => void
}

/** SPEC §2's Edit Post modal: closes once the update is saved. */
export function EditPostModal({ initial, onSubmit, onUpload, onFileError, onClose }: EditPostModalProps) {
  const submit = async (draft: PostDraft) => {
    const ok = await onSubmit(draft)
    if (ok) onClose()
    return ok
  }
  return (
    <Modal title="Edit Post" onClose={onClose}>
      <PostForm
        placeholder="What is happening?!"
        submitLabel="Update"
        initial={initial}
        onSubmit={submit}
        onUpload={onUpload}
        onFileError={onFileError}
      />
    </Modal>
  )
}
