import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { centred, clampOffset, cropArea, rezoom, scaleOf, type CropArea, type Point, type Size } from '../lib/crop.js'

type ImageCropperProps = {
  /** The chosen file, as an object URL. */
  src: string
  /** Width ÷ height of the result: 1 for an avatar, 3 for a banner. */
  aspect: number
  /** What is cropped, for the frame's name: "avatar", "banner". */
  what: string
  busy?: boolean
  onCancel: () => void
  onCrop: (area: CropArea) => void
}

const FRAME_WIDTH = 300
const MAX_ZOOM = 4
/** Arrow keys move the image this many pixels; with Shift, five times as far. */
const STEP = 10

const ARROWS: Record<string, Point> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
}

/**
 * A frame of the result's shape over the chosen image: drag the image (or, with the frame focused, use
 * the arrow keys) to move it, and the slider (or + and -) to zoom. Apply hands the part in the frame on,
 * in the image's own pixels.
 */
export function ImageCropper({ src, aspect, what, busy = false, onCancel, onCrop }: ImageCropperProps) {
  const frame: Size = { width: FRAME_WIDTH, height: Math.round(FRAME_WIDTH / aspect) }
  const [natural, setNatural] = useState<Size | null>(null)
  const [zoom, setZoom] = useState(1)
  const [offset, setOffset] = useState<Point>({ x: 0, y: 0 })
  const drag = useRef<{ pointer: Point; from: Point } | null>(null)
  const hintId = useId()
  const zoomId = useId()

  const move = (wanted: Point) => natural && setOffset(clampOffset(wanted, natural, frame, zoom))
  const zoomTo = (next: number) => {
    const to = Math.min(MAX_ZOOM, Math.max(1, next))
    if (natural) setOffset(rezoom(offset, natural, frame, zoom, to))
    setZoom(to)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    const arrow = ARROWS[event.key]
    if (arrow) {
      event.preventDefault()
      const step = event.shiftKey ? STEP * 5 : STEP
      // The image moves the way the arrow points.
      move({ x: offset.x + arrow.x * step, y: offset.y + arrow.y * step })
    } else if (event.key === '+' || event.key === '=') zoomTo(zoom + 0.25)
    else if (event.key === '-') zoomTo(zoom - 0.25)
  }
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture?.(event.pointerId)
    drag.current = { pointer: { x: event.clientX, y: event.clientY }, from: offset }
  }
  const onPointerMove = (event: PointerEvent) => {
    const start = drag.current
    if (!start) return
    move({ x: start.from.x + event.clientX - start.pointer.x, y: start.from.y + event.clientY - start.pointer.y })
  }
  const scale = natural ? scaleOf(natural, frame, zoom) : 0

  return (
    <div className="cropper stack">
      <div
        className="crop-frame"
        style={{ width: frame.width, height: frame.height }}
        tabIndex={0}
        role="group"
        aria-label={`Crop the ${what}`}
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
      >
        <img
          src={src}
          alt=""
          draggable={false}
          style={
            natural
              ? {
                  width: natural.width * scale,
                  height: natural.height * scale,
                  transform: `translate(${Math.round(offset.x)}px, ${Math.round(offset.y)}px)`,
                }
              : { visibility: 'hidden' }
          }
          onLoad={(event) => {
            const size = { width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight }
            if (size.width === 0 || size.height === 0) return
            setNatural(size)
            setOffset(centred(size, frame, zoom))
          }}
        />
      </div>
      <p id={hintId} className="hint">
        Drag the image, or use the arrow keys, to move it; + and - or the slider zoom.
      </p>
      <label htmlFor={zoomId}>Zoom</label>
      <input
        id={zoomId}
        type="range"
        min={1}
        max={MAX_ZOOM}
        step={0.05}
        value={zoom}
        onChange={(event) => zoomTo(Number(event.currentTarget.value))}
      />
      <div className="row-end">
        <button type="button" className="button outline" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className="button primary"
          disabled={!natural || busy}
          onClick={() => natural && onCrop(cropArea(offset, natural, frame, zoom))}
        >
          {busy ? 'Uploading…' : 'Apply'}
        </button>
      </div>
    </div>
  )
}
