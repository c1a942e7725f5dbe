import { Parser } from 'htmlparser2'

/** What a page says about itself, as a card shows it. */
export interface PageSummary {
  title: string
  description: string
  /** An absolute https address, or '' when the page names no image. */
  imageUrl: string
}

const MAX_TITLE = 200
const MAX_DESCRIPTION = 300

/** Whitespace runs as one space, cut to `max` characters (never inside a surrogate pair). */
function tidy(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const chars = [...flat]
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`
}

/** The image address resolved against the page, kept only when it is https. */
function imageAddress(raw: string, page: URL): string {
  if (raw === '' || !URL.canParse(raw.trim(), page.href)) return ''
  const url = new URL(raw.trim(), page)
  return url.protocol === 'https:' ? url.href : ''
}

/**
 * The title, description and image of an HTML page: Open Graph first, then Twitter's tags, then
 * `<title>` and `<meta name="description">`. A real HTML parser reads the page (entities decoded,
 * comments, scripts and attributes quoted any way handled as browsers do); only the head matters, so
 * parsing stops where the body starts.
 */
export function summarisePage(html: string, page: URL): PageSummary {
  const meta = new Map<string, string>()
  let title = ''
  let inTitle = false
  let done = false
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'body') done = true
        if (done) return
        if (name === 'title') inTitle = true
        if (name !== 'meta') return
        const key = (attributes.property ?? attributes.name ?? '').toLowerCase()
        const content = attributes.content
        // The first of each wins, as with Open Graph's own rule for repeated tags.
        if (key !== '' && content !== undefined && !meta.has(key)) meta.set(key, content)
      },
      ontext(text) {
        if (inTitle && !done) title += text
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false
        if (name === 'head') done = true
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.end(html)
  const first = (...keys: string[]) =>
    keys.map((key) => meta.get(key)?.trim() ?? '').find((value) => value !== '') ?? ''
  return {
    title: tidy(first('og:title', 'twitter:title') || title, MAX_TITLE),
    description: tidy(first('og:description', 'twitter:description', 'description'), MAX_DESCRIPTION),
    imageUrl: imageAddress(first('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image'), page),
  }
}

/** The text of a page's bytes, in the charset its header or its own `<meta charset>` names, UTF-8 otherwise. */
export function decodePage(body: Buffer, headerCharset: string | undefined): string {
  const declared =
    headerCharset ?? /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.subarray(0, 1024).toString('latin1'))?.[1]
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body)
  } catch {
    return new TextDecoder('utf-8').decode(body)
  }
}
