import { useState, type ReactNode } from 'react'
import { DraftModal } from './draft-modal.js'
import { PostForm, type PostDraft } from './post-form.js'

type PostFormModalProps = {
  title: string
  submitLabel: string
  busyLabel: string
  placeholder?: string
  initial: PostDraft
  onSubmit: (draft: PostDraft) => Promise<boolean>
  onUpload: (file: File) => Promise<string | null>
  onFileError: (message: string) => void
  onClose: () => void
  /** Shown under the form (a quote's card). */
  children?: ReactNode
}

/** What a modal of a post's form does with it: the callbacks of every such modal. */
export type PostModalHandlers = Pick<PostFormModalProps, 'onSubmit' | 'onUpload' | 'onFileError' | 'onClose'>

/** A post's form in a modal: closes once the post is saved; closing it with changes unsaved asks first. */
export function PostFormModal({ title, initial, onSubmit, onClose, children, ...form }: PostFormModalProps) {
  const [dirty, setDirty] = useState(false)
  const submit = async (draft: PostDraft) => {
    const ok = await onSubmit(draft)
    if (ok) onClose()
    return ok
  }
  return (
    <DraftModal title={title} dirty={dirty} onClose={onClose}>
      <PostForm
        {...form}
        initial={initial}
        onSubmit={submit}
        onChange={(draft) =>
          setDirty(
            draft.content !== initial.content ||
              JSON.stringify(draft.media) !== JSON.stringify(initial.media) ||
              (draft.spoilerText ?? '') !== (initial.spoilerText ?? ''),
          )
        }
      />
      {children}
    </DraftModal>
  )
}
