import type * as MSG from './messages.js'

/**
 * The stable code of every error the API answers with, beside its English message: what a client decides
 * by, so that rewording a message never changes what a client does. A catalogue message's code is its
 * name in snake case (`postNotFound` answers `post_not_found`); the rest are for answers without one
 * message of their own.
 */

type Snake<S extends string> = S extends `${infer First}${infer Rest}`
  ? `${First extends Lowercase<First> ? First : `_${Lowercase<First>}`}${Snake<Rest>}`
  : S

export type MessageName = keyof typeof MSG

export type ErrorCode =
  | Snake<MessageName>
  /** A body, query or path that does not fit the call's schema or a field's rule: the messages say what. */
  | 'invalid_request'
  /** A refusal of the framework's own that the catalogue has no message for, named by its status. */
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable_entity'

/** A catalogue message's code: its name in snake case. */
export function codeOf(name: MessageName): ErrorCode {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) as ErrorCode
}
