import { useState } from 'react'
import { imageAlt, type ImageView } from '../lib/model.js'
import { Modal } from './modal.js'

type LightboxProps = {
  images: readonly ImageView[]
  /** The image shown first, by its place among them. */
  start: number
  author: Parameters<typeof imageAlt>[3]
  onClose: () => void
}

/**
 * A post's images one at a time, as large as the screen allows, over a dark backdrop, each with its
 * author's description written out beneath it; Previous and Next move between several. Escape, the X or
 * the backdrop close it.
 */
export function Lightbox({ images, start, author, onClose }: LightboxProps) {
  const [index, setIndex] = useState(Math.min(Math.max(start, 0), images.length - 1))
  const image = images[index]
  if (!image) return null
  const count = images.length
  return (
    <Modal title={count > 1 ? `Image ${index + 1} of ${count}` : 'Image'} variant="media" onClose={onClose}>
      <img className="lightbox-image" src={image.url} alt={imageAlt(image, index, count, author)} />
      {image.alt.trim() !== '' && (
        <p className="lightbox-alt">
          <span className="alt-badge">ALT</span> {image.alt}
        </p>
      )}
      {count > 1 && (
        <div className="lightbox-nav">
          <button
            type="button"
            className="button outline small"
            disabled={index === 0}
            onClick={() => setIndex(index - 1)}
          >
            Previous image
          </button>
          <button
            type="button"
            className="button outline small"
            disabled={index === count - 1}
            onClick={() => setIndex(index + 1)}
          >
            Next image
          </button>
        </div>
      )}
    </Modal>
  )
}
