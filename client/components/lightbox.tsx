import { Modal } from './modal.js'

/** One image as large as the screen allows, over a dark backdrop; Escape, the X or the backdrop close it. */
export function Lightbox({ src, alt, onClose }: { src: string; alt: string; onClose: () => void }) {
  return (
    <Modal title="Image" variant="media" onClose={onClose}>
      <img className="lightbox-image" src={src} alt={alt} />
    </Modal>
  )
}
