import { useRef, type ChangeEvent } from 'react'
import { checkImageFile } from '../lib/file-check.js'
import { ImageIcon } from './icons.js'

type ImagePickerProps = {
  disabled?: boolean
  /** The button's name; shown as its text when `text` is set, else the icon stands for it. */
  label?: string
  text?: boolean
  onFile: (file: File) => void
  onError: (message: string) => void
}

/**
 * A real button that opens the file picker, so Enter opens it as well as Space (a file input dressed
 * as a label answers only one of them in some browsers). Files failing the checks of lib/file-check.ts never
 * leave the browser.
 */
export function ImagePicker({
  disabled = false,
  label = 'Add image',
  text = false,
  onFile,
  onError,
}: ImagePickerProps) {
  const input = useRef<HTMLInputElement>(null)
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const element = event.currentTarget
    const file = element.files?.[0]
    // Cleared so that choosing the same file again still fires a change.
    element.value = ''
    if (!file) return
    const problem = checkImageFile(file)
    if (problem) onError(problem)
    else onFile(file)
  }
  return (
    <>
      <button
        type="button"
        className={text ? 'button outline' : 'icon-button accent'}
        aria-label={text ? undefined : label}
        title={text ? undefined : label}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        {text ? label : <ImageIcon />}
      </button>
      <input
        ref={input}
        type="file"
        accept="image/*"
        hidden
        tabIndex={-1}
        aria-label={text ? label : 'Image file'}
        disabled={disabled}
        onChange={onChange}
      />
    </>
  )
}
