import * as MSG from '../../common/messages.js'

/**
 * The code an error with this message must carry, worked out apart from the server's own table: the
 * catalogue message's name in snake case, and for a message outside the catalogue (a schema's words)
 * `invalid_request`.
 */
export function expectedCode(message: string): string {
  const name = Object.entries(MSG).find(([, text]) => text === message)?.[0]
  return name === undefined ? 'invalid_request' : name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
}
