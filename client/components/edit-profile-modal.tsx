import { useId, useState, type FormEvent } from 'react'
import type { UserView } from '../lib/model.js'
import { Modal } from './modal.js'

type ProfileEdit = { avatarURL: string; bio: string; website: string }

type EditProfileModalProps = {
  user: UserView
  avatars: readonly string[]
  onSave: (edit: ProfileEdit) => Promise<boolean>
  onClose: () => void
}

/** Edit Profile: one of the preset avatars, a bio and a website. */
export function EditProfileModal({ user, avatars, onSave, onClose }: EditProfileModalProps) {
  const [avatarURL, setAvatarURL] = useState(user.avatarURL)
  const [bio, setBio] = useState(user.bio)
  const [website, setWebsite] = useState(user.website)
  const [saving, setSaving] = useState(false)
  const bioId = useId()
  const websiteId = useId()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    const ok = await onSave({ avatarURL, bio: bio.trim(), website: website.trim() })
    setSaving(false)
    if (ok) onClose()
  }

  return (
    <Modal title="Edit Profile" onClose={onClose}>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <fieldset className="avatar-choices">
          <legend>Avatar</legend>
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
        <label htmlFor={bioId}>Bio</label>
        <textarea id={bioId} rows={3} maxLength={160} value={bio} onChange={(e) => setBio(e.currentTarget.value)} />
        <label htmlFor={websiteId}>Website</label>
        <input
          id={websiteId}
          inputMode="url"
          autoComplete="url"
          maxLength={200}
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
