import t from 'tap'
import { ConfigError, parseConfig } from '../../server/config.js'

/** LINK_PREVIEWS and LINK_PREVIEW_ALLOW (docs/configuration.md). */

await t.test('link previews are on by default, with nothing allowed past the address check', async (t) => {
  const config = parseConfig({})
  t.equal(config.linkPreviews, true)
  t.strictSame(config.linkPreviewAllow, [])
})

await t.test('LINK_PREVIEWS=false turns them off', async (t) => {
  t.equal(parseConfig({ LINK_PREVIEWS: 'false' }).linkPreviews, false)
  t.throws(() => parseConfig({ LINK_PREVIEWS: 'maybe' }), ConfigError)
})

await t.test('LINK_PREVIEW_ALLOW: host names with an optional port, lower case', async (t) => {
  t.strictSame(parseConfig({ LINK_PREVIEW_ALLOW: ' localhost:8443, Pages.Test ,127.0.0.1' }).linkPreviewAllow, [
    'localhost:8443',
    'pages.test',
    '127.0.0.1',
  ])
  for (const bad of ['https://localhost', 'host/path', 'a b', 'user@host'])
    t.throws(
      () => parseConfig({ LINK_PREVIEW_ALLOW: bad }),
      /LINK_PREVIEW_ALLOW must be host names with an optional :port/,
      bad,
    )
})
