import type { PostView } from '../lib/model.js'
import type { PostDraft } from './post-form.js'
import { PostFormModal, type PostModalHandlers } from './post-form-modal.js'
import { QuoteCard } from './quote-card.js'

type QuoteModalProps = PostModalHandlers & { quoted: PostView }

const EMPTY: PostDraft = { content: '', media: [] }

/** The composer for a quote: what to say, with the quoted post's card under it; closes once it is sent. */
export function QuoteModal({ quoted, ...props }: QuoteModalProps) {
  return (
    <PostFormModal
      title="Quote post"
      submitLabel="Post"
      busyLabel="Posting…"
      placeholder="Add a comment"
      initial={EMPTY}
      {...props}
    >
      <QuoteCard quote={quoted} />
    </PostFormModal>
  )
}
