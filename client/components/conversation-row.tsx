import { Link } from 'wouter'
import { displayNameOf, type ConversationView } from '../lib/model.js'
import { paths } from '../paths.js'
import { Avatar } from './avatar.js'
import { Menu } from './menu.js'
import { TimeAgo } from './time-ago.js'

/** How many faces a row shows; the names say the rest. */
const MAX_FACES = 3

/** "Maya Lin", "Maya Lin and Theo Park", "Maya Lin, Theo Park and Ada Lovelace": the others in a conversation. */
export function participantNames(conversation: ConversationView): string {
  const names = conversation.participants.map(displayNameOf)
  const last = names.pop()
  if (last === undefined) return 'Only you'
  return names.length === 0 ? last : `${names.join(', ')} and ${last}`
}

type ConversationRowProps = {
  conversation: ConversationView
  /** My username: my own last message reads "You: …". */
  me: string
  onHide: () => void
}

/** One conversation in Messages: who, the newest message, when, and how many are unread; a link to it. */
export function ConversationRow({ conversation, me, onHide }: ConversationRowProps) {
  const names = participantNames(conversation)
  const { lastPost, unread } = conversation
  const mine = lastPost.username === me
  return (
    <li className={unread > 0 ? 'conversation-row is-unread' : 'conversation-row'}>
      <Link href={paths.conversation.href(conversation._id)} className="conversation-link">
        <span className="conversation-faces">
          {conversation.participants.slice(0, MAX_FACES).map((person) => (
            <Avatar key={person._id} src={person.avatarURL} name="" size="sm" decorative />
          ))}
        </span>
        <span className="conversation-body">
          <span className="conversation-head">
            <strong className="conversation-names">{names}</strong>
            <span className="conversation-time">
              <TimeAgo at={lastPost.createdAt} />
            </span>
          </span>
          <span className="conversation-last">
            {mine ? 'You: ' : ''}
            {lastPost.content}
          </span>
          {unread > 0 && <span className="conversation-unread">{unread === 1 ? '1 unread' : `${unread} unread`}</span>}
        </span>
      </Link>
      <Menu
        label={`Options for the conversation with ${names}`}
        items={[{ label: 'Hide conversation', onSelect: onHide }]}
      />
    </li>
  )
}
