import type { ChangeEvent } from 'react'
import { checkImageFile } from '../lib/file-check.js'
import { ImageIcon } from './icons.js'

type ImagePickerProps = {
  disabled?: boolean
  onFile: (file: File) => void
  onError: (message: string) => void
}

/** A file input dressed as an icon button; files failing SPEC §5's checks never leave the browser. */
export function ImagePicker({ disabled = false, onFile, onError }: ImagePickerProps) {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget
    const file = input.files?.[0]
    // Cleared so that choosing the same file again still fires a change.
    input.value = ''
    if (!file) return
    const problem = checkImageFile(file)
    if (problem) onError(problem)
    else onFile(file)
  }
  return (
    <label className={`icon-button accent file-picker${disabled ? ' is-disabled' : ''}`} title="Add image">
      <input
        type="file"
        accept="image/*"
        className="visually-hidden"
        aria-label="Add image"
        disabled={disabled}
        onChange={onChange}
      />
      <ImageIcon />
    </label>
  )
}
