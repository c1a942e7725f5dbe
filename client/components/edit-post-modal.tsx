import { useState } from 'react'
import { DraftModal } from './draft-modal.js'
import { PostForm, type PostDraft } from './post-form.js'

type EditPostModalProps = {
  initial: PostDraft
  onSubmit: (draft: PostDraft) => Promise<boolean>
  onUpload: (file: File) => Promise<string | null>
  onFileError: (message: string) => void
  onClose: () => void
}

/** The Edit Post modal: closes once the update is saved; closing it with changes unsaved asks first. */
export function EditPostModal({ initial, onSubmit, onUpload, onFileError, onClose }: EditPostModalProps) {
  const [dirty, setDirty] = useState(false)
  const submit = async (draft: PostDraft) => {
    const ok = await onSubmit(draft)
    if (ok) onClose()
    return ok
  }
  return (
    <DraftModal title="Edit Post" dirty={dirty} onClose={onClose}>
      <PostForm
        submitLabel="Update"
        busyLabel="Saving…"
        initial={initial}
        onSubmit={submit}
        onUpload={onUpload}
        onFileError={onFileError}
        onChange={(draft) =>
          setDirty(
            draft.content !== initial.content ||
              draft.mediaUrl !== initial.mediaUrl ||
              draft.mediaAlt !== initial.mediaAlt ||
              (draft.spoilerText ?? '') !== (initial.spoilerText ?? ''),
          )
        }
      />
    </DraftModal>
  )
}
