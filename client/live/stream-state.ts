import type { StreamState } from '../state/network.js'
import type { EventSourceLike, RawMessage } from './messages.js'

/**
 * How the tab that holds the browser's stream tells every tab, itself included, whether the stream is
 * open: a message of its own among the relayed events, under a name no server event has.
 */
const STREAM_STATE = 'chirp.stream-state'

export function streamStateMessage(state: StreamState): RawMessage {
  return { name: STREAM_STATE, data: state, id: undefined }
}

/** The state a message carries, when it is a stream-state message. */
export function streamStateOf(message: RawMessage): StreamState | undefined {
  if (message.name !== STREAM_STATE) return undefined
  return message.data === 'open' || message.data === 'down' || message.data === 'unknown' ? message.data : undefined
}

/** Opens streams as `open` does, and reports each one's opening and failing. */
export function reportingSources(open: (url: string) => EventSourceLike, report: (state: StreamState) => void) {
  return (url: string): EventSourceLike => {
    const source = open(url)
    source.addEventListener('open', () => report('open'))
    source.addEventListener('error', () => report('down'))
    return source
  }
}
