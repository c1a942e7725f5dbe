type AvatarProps = { src: string; name: string; size?: 'sm' | 'md' | 'lg' }

/** A round user picture; the alt text names the user, since the picture often stands alone as a link. */
export function Avatar({ src, name, size = 'md' }: AvatarProps) {
  return <img className={`avatar avatar-${size}`} src={src} alt={name} width="48" height="48" loading="lazy" />
}
