import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { useSnapshot } from 'valtio'
import { Link, useLocation } from 'wouter'
import { hasVisibleText } from '../../server/schemas/text.js'
import { LIMITS } from '../../common/limits.js'
import { participantNames } from '../components/conversation-row.js'
import { BackTitle } from '../components/back-title.js'
import { LoadError } from '../components/load-error.js'
import { Menu } from '../components/menu.js'
import { Spinner } from '../components/spinner.js'
import { goBack } from '../lib/back.js'
import { useDocumentTitle } from '../lib/document-title.js'
import { displayNameOf } from '../lib/model.js'
import { paths } from '../paths.js'
import {
  closeConversation,
  conversations,
  hideConversation,
  openConversation,
  sendMessage,
} from '../state/conversations.js'
import { postCache } from '../state/post-cache.js'
import { session } from '../state/session.js'
import { showToast } from '../state/toasts.js'
import { MessageItem } from './message-item.js'

/**
 * One conversation: its messages oldest at the top and newest at the bottom, older ones on request, and a
 * box to answer in, which sends a direct post answering the newest message (DECISIONS §12). Opening it
 * marks it read; a new message shows live, and is said to a screen reader.
 */
export function ConversationPage({ conversationId }: { conversationId: string }) {
  const { open, messages } = useSnapshot(conversations)
  const me = useSnapshot(session).username ?? ''
  const [, navigate] = useLocation()
  const endRef = useRef<HTMLDivElement>(null)
  const here = messages.key === conversationId
  const ids = here ? messages.items : []
  const newest = ids[0]
  const names = open.conversation ? participantNames(open.conversation) : null
  useDocumentTitle(names ? `Messages with ${names}` : 'Messages')

  useEffect(() => {
    void openConversation(conversationId)
    return () => closeConversation(conversationId)
  }, [conversationId])

  // The newest message in sight: on opening, and as one arrives or is sent (not as older ones load above).
  useLayoutEffect(() => {
    if (newest) endRef.current?.scrollIntoView?.({ block: 'end' })
  }, [newest])

  const hide = async () => {
    if (!(await hideConversation(conversationId))) return
    showToast('The conversation was hidden until a new message comes', 'success')
    navigate(paths.messages.href())
  }

  let body
  if (open.hidden) {
    body = (
      <div className="stack center">
        <LoadError message="This conversation is hidden, or it isn't yours to read." />
        <Link href={paths.messages.href()} className="button outline small">
          Back to Messages
        </Link>
      </div>
    )
  } else if (!here || (!messages.loaded && ids.length === 0)) {
    body = <Spinner label="Loading messages" />
  } else if (messages.error && ids.length === 0) {
    body = <LoadError message={messages.error} onRetry={() => void openConversation(conversationId)} />
  } else {
    body = (
      <>
        {!messages.done && (
          <div className="older-messages">
            <button
              type="button"
              className="button outline small"
              disabled={messages.loading}
              onClick={() => void openConversation(conversationId, true)}
            >
              {messages.loading ? 'Loading…' : 'Load older messages'}
            </button>
          </div>
        )}
        <ol className="message-list" aria-label="Messages">
          {[...ids].reverse().map((id) => (
            <MessageItem key={id} postId={id} me={me} />
          ))}
        </ol>
        <div ref={endRef} />
        <NewMessageNotice newest={newest} me={me} />
        <ReplyBox onSend={(text) => sendMessage(conversationId, text)} to={names ?? ''} />
      </>
    )
  }

  return (
    <>
      <BackTitle title={names ?? 'Messages'} onBack={() => goBack(navigate, paths.messages.href())}>
        {open.conversation && !open.hidden && (
          <div className="page-title-menu">
            <Menu label="Conversation options" items={[{ label: 'Hide conversation', onSelect: () => void hide() }]} />
          </div>
        )}
      </BackTitle>
      {body}
    </>
  )
}

/**
 * Says a message that arrived from someone else, once, to a screen reader: the list itself is not a live
 * region, which would read out every older message loaded above too.
 */
function NewMessageNotice({ newest, me }: { newest: string | undefined; me: string }) {
  const [notice, setNotice] = useState('')
  const seen = useRef(newest)
  useEffect(() => {
    if (newest === seen.current) return
    const first = seen.current === undefined
    seen.current = newest
    const post = newest ? postCache.byId[newest] : undefined
    if (first || !post || post.username === me) return
    setNotice(`New message from ${displayNameOf(post)}: ${post.content}`)
  }, [newest, me])
  return (
    <p className="visually-hidden" role="status">
      {notice}
    </p>
  )
}

/** The answer box: Enter sends, Shift+Enter starts a new line; the text stays locked while it is on its way. */
function ReplyBox({ onSend, to }: { onSend: (text: string) => Promise<boolean>; to: string }) {
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const textId = useId()
  const ready = hasVisibleText(text)

  const send = async () => {
    if (!ready || sending) return
    setSending(true)
    const sent = await onSend(text.trim())
    setSending(false)
    if (sent) setText('')
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void send()
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    void send()
  }

  return (
    <form className="reply-box" aria-busy={sending} onSubmit={submit}>
      <label htmlFor={textId} className="visually-hidden">
        {to ? `Message to ${to}` : 'Message'}
      </label>
      <textarea
        id={textId}
        rows={2}
        placeholder="Write a message"
        maxLength={LIMITS.postContent}
        value={text}
        readOnly={sending}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="button primary" disabled={!ready || sending}>
        {sending ? 'Sending…' : 'Send'}
      </button>
    </form>
  )
}
