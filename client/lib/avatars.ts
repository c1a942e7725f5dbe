/** A new account gets one of the presets picked by its username (defaultAvatarOf). */
export { PRESET_AVATARS } from '../../common/avatars.js'
