/** host-meta (RFC 6415): where WebFinger is, for servers that look it up this way first. */
export function hostMeta(origin: string): string {
  const template = `${origin}/.well-known/webfinger?resource={uri}`.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">',
    `  <Link rel="lrdd" type="application/jrd+json" template="${template}"/>`,
    '</XRD>',
    '',
  ].join('\n')
}
