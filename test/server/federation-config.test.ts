import t from 'tap'
import { ConfigError, parseConfig } from '../../server/config.js'

/** FEDERATION (DECISIONS §14): off by default; on, only with an https PUBLIC_URL at the root of its domain. */

await t.test('off by default, and what was set before changes nothing', async (t) => {
  t.equal(parseConfig({}).federation, false)
  t.equal(parseConfig({ PUBLIC_URL: 'http://localhost:3000' }).federation, false)
  t.equal(parseConfig({ FEDERATION: 'false', PUBLIC_URL: 'http://chirp.example/app' }).federation, false)
})

await t.test('on with an https PUBLIC_URL', async (t) => {
  const config = parseConfig({ FEDERATION: 'true', PUBLIC_URL: 'https://chirp.example/' })
  t.equal(config.federation, true)
  t.equal(config.publicUrl, 'https://chirp.example')
  t.equal(parseConfig({ FEDERATION: 'on', PUBLIC_URL: 'https://chirp.example:8443' }).federation, true, 'a port')
})

await t.test('refused, with what to set, without PUBLIC_URL, over http or below a path', async (t) => {
  for (const [publicUrl, env] of [
    ['', { FEDERATION: 'true' }],
    ['http://chirp.example', { FEDERATION: 'true', PUBLIC_URL: 'http://chirp.example' }],
    ['https://example.com/chirp', { FEDERATION: 'true', PUBLIC_URL: 'https://example.com/chirp' }],
  ] as const) {
    const error = t.throws(() => parseConfig(env), publicUrl) as ConfigError
    t.strictSame(
      error.problems,
      [
        'FEDERATION=true needs PUBLIC_URL set to the https address of the server’s domain, without a path, ' +
          `such as https://chirp.example.com; got "${publicUrl}"`,
      ],
      publicUrl || 'no PUBLIC_URL',
    )
  }
  const error = t.throws(() => parseConfig({ FEDERATION: 'maybe' })) as ConfigError
  t.strictSame(error.problems, ['FEDERATION must be true or false, got "maybe"'])
})
