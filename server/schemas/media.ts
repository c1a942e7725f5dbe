import { Type, type Static } from '@sinclair/typebox'

/** Where the stored image is served, and its size in pixels as stored: upright, and one frame of an animation. */
export const MediaReplySchema = Type.Object({
  url: Type.String(),
  width: Type.Integer({ minimum: 1 }),
  height: Type.Integer({ minimum: 1 }),
})
export type MediaReply = Static<typeof MediaReplySchema>

/** The largest upload, in bytes. */
export const MAX_UPLOAD_BYTES = 20_971_520

export { PRESET_AVATARS } from '../../common/avatars.js'
