import type { LinkPreview } from '../services/link-previews.js'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text made safe inside an HTML attribute or element: every character that could end one is escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)
}

/** `url` (a path here, or an absolute https URL) as an absolute URL, or undefined when it is none. */
function absolute(url: string, origin: string): string | undefined {
  try {
    const resolved = new URL(url, origin)
    return resolved.protocol === 'https:' || resolved.protocol === 'http:' ? resolved.href : undefined
  } catch {
    return undefined
  }
}

/** The Open Graph and Twitter card tags of one page, for unfurlers that read the HTML and run no script. */
function previewTags(preview: LinkPreview, pageUrl: string, origin: string): [string, string, string][] {
  const image = preview.image === undefined ? undefined : absolute(preview.image, origin)
  const alt = image && preview.imageAlt
  return [
    ['property', 'og:site_name', 'Chirp'],
    ['property', 'og:type', preview.type],
    ['property', 'og:url', pageUrl],
    ['property', 'og:title', preview.title],
    ['property', 'og:description', preview.description],
    ...(image ? [['property', 'og:image', image] as [string, string, string]] : []),
    ...(alt ? [['property', 'og:image:alt', alt] as [string, string, string]] : []),
    ['name', 'twitter:card', preview.card],
    ['name', 'twitter:title', preview.title],
    ['name', 'twitter:description', preview.description],
    ...(image ? [['name', 'twitter:image', image] as [string, string, string]] : []),
    ...(alt ? [['name', 'twitter:image:alt', alt] as [string, string, string]] : []),
  ]
}

/**
 * The client's index.html with a shared page's preview tags (and, when visitors may read these pages,
 * the meta the client reads to let them in) just before `</head>`. Every value is escaped.
 */
export function pageWithPreview(
  html: string,
  {
    preview,
    pageUrl,
    origin,
    publicRead,
  }: { preview?: LinkPreview; pageUrl: string; origin: string; publicRead: boolean },
): string {
  const tags = preview ? previewTags(preview, pageUrl, origin) : []
  if (publicRead) tags.push(['name', 'chirp:public-read', 'true'])
  const at = html.search(/<\/head>/i)
  if (at < 0 || tags.length === 0) return html
  const meta = tags
    .map(([key, name, value]) => `<meta ${key}="${name}" content="${escapeHtml(value)}" />`)
    .join('\n    ')
  return `${html.slice(0, at)}  ${meta}\n  ${html.slice(at)}`
}
