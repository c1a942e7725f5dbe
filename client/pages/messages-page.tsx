import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import { ConversationRow } from '../components/conversation-row.js'
import { Modal } from '../components/modal.js'
import { NewMessageForm } from '../components/new-message-form.js'
import { PagedView } from '../components/paged-view.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { recipientsOf } from '../lib/people.js'
import { paths } from '../paths.js'
import { conversations, hideConversation, loadConversations, startConversation } from '../state/conversations.js'
import { session } from '../state/session.js'
import { showToast } from '../state/toasts.js'

/**
 * Messages (DECISIONS §12): my conversations, the newest activity first, each with whom, the newest
 * message and how many are unread, live as messages come; and New message, to start one.
 */
export function MessagesPage() {
  useDocumentTitle('Messages')
  const { list } = useSnapshot(conversations)
  const me = useSnapshot(session).username ?? ''
  const [writing, setWriting] = useState(false)
  const [, navigate] = useLocation()
  useEffect(() => {
    void loadConversations()
  }, [])

  const send = async (to: string, text: string) => {
    const sent = await startConversation(recipientsOf(to), text)
    if ('error' in sent) return sent.error
    setWriting(false)
    showToast('Your message was sent', 'success')
    navigate(sent.conversationId ? paths.conversation.href(sent.conversationId) : paths.messages.href())
    return null
  }

  return (
    <>
      <div className="page-title with-action">
        <h1>Messages</h1>
        <button type="button" className="button primary small" onClick={() => setWriting(true)}>
          New message
        </button>
      </div>
      <PagedView
        state={list}
        label="Conversations"
        empty="No messages yet. Start a conversation with New message: only the people you write to see it."
        end="That's every conversation."
        onLoad={(more) => void loadConversations(more)}
      >
        {list.items.map((conversation) => (
          <ConversationRow
            key={conversation._id}
            conversation={conversation}
            me={me}
            onHide={() => {
              void hideConversation(conversation._id).then(
                (hidden) => hidden && showToast('The conversation was hidden until a new message comes', 'success'),
              )
            }}
          />
        ))}
      </PagedView>
      {writing && (
        <Modal title="New message" onClose={() => setWriting(false)}>
          <NewMessageForm onSend={send} />
        </Modal>
      )}
    </>
  )
}
