import { useId, useState, type ReactNode } from 'react'

type SpoilerGateProps = {
  /** The content warning; without one the content shows as it is. */
  warning: string | undefined
  children: ReactNode
}

/** A post's text and image behind its content warning, until the reader chooses Show (and Hide again). */
export function SpoilerGate({ warning, children }: SpoilerGateProps) {
  const [open, setOpen] = useState(false)
  const hiddenId = useId()
  if (!warning) return <>{children}</>
  return (
    <>
      <p className="post-spoiler">
        <span className="post-spoiler-text">{warning}</span>{' '}
        <button
          type="button"
          className="button outline small"
          aria-expanded={open}
          aria-controls={hiddenId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide' : 'Show'}
        </button>
      </p>
      <div id={hiddenId} hidden={!open}>
        {open && children}
      </div>
    </>
  )
}
