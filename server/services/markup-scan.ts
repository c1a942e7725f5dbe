/**
 * Text that turns an image into a polyglot: markup or script a browser, a proxy that drops our headers,
 * or a user saving the file could run as HTML or SVG. Each marker is at least 6 bytes, so the chance that
 * 20 MiB of compressed pixels holds one by accident is below one in 10^5 uploads; short tags such as
 * `<svg` or `<img` would match random data too often, and are caught by what they need to run
 * (`<script`, `onload=`, `javascript:`).
 */
const MARKUP = /<(?:script|iframe|object|embed|frame|applet|!doctype|\?php|(?:html|head|body|meta|link|base|form|style)[\s/>])|(?:java|vb)script:|on(?:load|error)\s*=/

/** The longest a marker can be without its optional spaces; a match may straddle two chunks. */
const OVERLAP = 16

/** Scans a stream chunk by chunk for markup; case-insensitive, in bounded memory. */
export function createMarkupScanner() {
  let tail = ''
  return {
    /** True once markup has been seen in this chunk or across its boundary with the last one. */
    found(chunk: Buffer): boolean {
      // latin1 maps each byte to one character, so binary data cannot form multi-byte surprises.
      const text = tail + chunk.toString('latin1').toLowerCase()
      tail = text.slice(-OVERLAP)
      return MARKUP.test(text)
    },
  }
}
