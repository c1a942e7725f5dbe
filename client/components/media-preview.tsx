import { useId } from 'react'
import { CloseIcon } from './icon.js'
import { LIMITS } from '../../common/limits.js'

/** An image's description is at most 1,000 characters. */
const MAX_ALT = LIMITS.mediaAlt

type MediaPreviewProps = {
  url: string
  alt: string
  /** What the image is called among the draft's: 'Image', or 'Image 2' when there are several. */
  name?: string
  locked: boolean
  onAltChange: (alt: string) => void
  onRemove: () => void
}

/** The image about to be posted, with the description its author writes for people who cannot see it. */
export function MediaPreview({ url, alt, name = 'Image', locked, onAltChange, onRemove }: MediaPreviewProps) {
  const altId = useId()
  return (
    <div className="media-preview">
      <div className="media-preview-frame">
        <img src={url} alt={alt || `${name} to be posted`} />
        <button
          type="button"
          className="icon-button on-media"
          aria-label={name === 'Image' ? 'Remove image' : `Remove ${name.toLowerCase()}`}
          disabled={locked}
          onClick={onRemove}
        >
          <CloseIcon />
        </button>
      </div>
      <label htmlFor={altId} className="media-alt-label">
        {name} description
      </label>
      <textarea
        id={altId}
        className="media-alt"
        rows={2}
        placeholder="Describe the image for people who can't see it"
        maxLength={MAX_ALT}
        value={alt}
        readOnly={locked}
        onChange={(e) => onAltChange(e.currentTarget.value)}
      />
    </div>
  )
}
