import { useEffect, useId, useState, type FormEvent } from 'react'
import { drawCrop, type CropArea } from '../lib/crop.js'
import { fullName, type UserView } from '../lib/model.js'
import { ImageCropper } from './image-cropper.js'
import { ImagePicker } from './image-picker.js'
import { Modal } from './modal.js'
import { LIMITS } from '../../common/limits.js'

type ProfileEdit = { avatarURL: string; bannerURL: string; displayName: string; bio: string; website: string }

type EditProfileModalProps = {
  user: UserView
  avatars: readonly string[]
  onSave: (edit: ProfileEdit) => Promise<boolean>
  /** Uploads a file: its /media/ URL, or null when it failed (and the reader was told). */
  onUpload: (file: File) => Promise<string | null>
  onFileError: (message: string) => void
  onClose: () => void
}

/** What is being cropped: the avatar (square) or the banner (3:1), from a file chosen just now. */
type Cropping = { kind: 'avatar' | 'banner'; src: string }

/** The size the cropped image is drawn at: enough for a sharp picture on a high-density screen. */
const OUT = { avatar: { width: 400, height: 400 }, banner: { width: 1500, height: 500 } } as const

/**
 * Edit Profile: a display name, one of the preset avatars or a photo of one's own (cropped square
 * here, then uploaded), a banner (cropped 3:1), a bio and a website.
 */
export function EditProfileModal({ user, avatars, onSave, onUpload, onFileError, onClose }: EditProfileModalProps) {
  const [displayName, setDisplayName] = useState(user.displayName ?? '')
  const [avatarURL, setAvatarURL] = useState(user.avatarURL)
  const [bannerURL, setBannerURL] = useState(user.bannerURL ?? '')
  const [bio, setBio] = useState(user.bio)
  const [website, setWebsite] = useState(user.website)
  const [saving, setSaving] = useState(false)
  const [cropping, setCropping] = useState<Cropping | null>(null)
  const [uploading, setUploading] = useState(false)
  const nameId = useId()
  const bioId = useId()
  const websiteId = useId()
  // The chosen file's object URL is let go once it is cropped, or given up.
  useEffect(() => (cropping ? () => URL.revokeObjectURL(cropping.src) : undefined), [cropping])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    const ok = await onSave({
      avatarURL,
      bannerURL,
      displayName: displayName.trim(),
      bio: bio.trim(),
      website: website.trim(),
    })
    setSaving(false)
    if (ok) onClose()
  }

  const crop = async ({ kind, src }: Cropping, area: CropArea) => {
    setUploading(true)
    try {
      const url = await onUpload(await drawCrop(src, area, OUT[kind], `${kind}.png`))
      if (url === null) return
      if (kind === 'avatar') setAvatarURL(url)
      else setBannerURL(url)
      setCropping(null)
    } catch (error) {
      onFileError(error instanceof Error ? error.message : String(error))
    } finally {
      setUploading(false)
    }
  }

  if (cropping)
    return (
      <Modal title="Edit Profile" onClose={onClose}>
        <ImageCropper
          src={cropping.src}
          aspect={cropping.kind === 'avatar' ? 1 : 3}
          what={cropping.kind}
          busy={uploading}
          onCancel={() => setCropping(null)}
          onCrop={(area) => void crop(cropping, area)}
        />
      </Modal>
    )

  const own = !avatars.includes(avatarURL)
  const choose = (kind: Cropping['kind']) => (file: File) => setCropping({ kind, src: URL.createObjectURL(file) })
  return (
    <Modal title="Edit Profile" onClose={onClose}>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <label htmlFor={nameId}>Display name</label>
        <input
          id={nameId}
          maxLength={LIMITS.name}
          autoComplete="nickname"
          placeholder={fullName(user)}
          value={displayName}
          onChange={(e) => setDisplayName(e.currentTarget.value)}
        />
        <fieldset className="avatar-choices">
          <legend>Avatar</legend>
          {own && <img src={avatarURL} alt="Your avatar" className="avatar avatar-lg" />}
          {avatars.map((url, index) => (
            <label key={url} className="avatar-choice">
              <input
                type="radio"
                name="avatar"
                className="visually-hidden"
                value={url}
                checked={avatarURL === url}
                onChange={() => setAvatarURL(url)}
              />
              <img src={url} alt={`Avatar ${index + 1}`} className="avatar avatar-lg" />
            </label>
          ))}
        </fieldset>
        <div className="profile-uploads">
          <ImagePicker text label="Upload a new avatar" onFile={choose('avatar')} onError={onFileError} />
          <ImagePicker text label="Upload a new banner" onFile={choose('banner')} onError={onFileError} />
          {bannerURL && (
            <button type="button" className="button outline" onClick={() => setBannerURL('')}>
              Remove banner
            </button>
          )}
        </div>
        {bannerURL && <img src={bannerURL} alt="Your banner" className="banner-preview" />}
        <label htmlFor={bioId}>Bio</label>
        <textarea
          id={bioId}
          rows={3}
          maxLength={LIMITS.bio}
          value={bio}
          onChange={(e) => setBio(e.currentTarget.value)}
        />
        <label htmlFor={websiteId}>Website</label>
        <input
          id={websiteId}
          inputMode="url"
          autoComplete="url"
          maxLength={LIMITS.website}
          placeholder="https://example.com"
          value={website}
          onChange={(e) => setWebsite(e.currentTarget.value)}
        />
        <div className="row-end">
          <button type="submit" className="button primary" disabled={saving}>
            Save
          </button>
        </div>
      </form>
    </Modal>
  )
}
