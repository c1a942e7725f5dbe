type AvatarProps = { src: string; name: string; size?: 'xs' | 'sm' | 'md' | 'lg'; decorative?: boolean }

/**
 * A round user picture; the alt text names the user, since the picture often stands alone as a link.
 * `decorative` when the text beside it already names them, so a screen reader does not say it twice.
 */
export function Avatar({ src, name, size = 'md', decorative = false }: AvatarProps) {
  return (
    <img
      className={`avatar avatar-${size}`}
      src={src}
      alt={decorative ? '' : name}
      width="48"
      height="48"
      loading="lazy"
    />
  )
}
