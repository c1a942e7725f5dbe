import { readFile } from 'node:fs/promises'
import t from 'tap'
import { parse } from 'yaml'
import { parseConfig } from '../../server/config.js'

/**
 * No Docker engine runs where the tests do, so the scaled-out layout is checked by reading it: every
 * variable compose.yaml gives Chirp is one the configuration reads and accepts, and the ports and
 * paths agree with the Dockerfile and the proxy's configuration.
 */
const compose = parse(await readFile('compose.yaml', 'utf8')) as {
  services: Record<string, { build?: string; environment?: Record<string, string>; volumes?: string[]; image?: string }>
}
const dockerfile = await readFile('Dockerfile', 'utf8')
const nginx = await readFile('deploy/nginx.conf', 'utf8')
const configSource = await readFile('server/config.ts', 'utf8')

await t.test('the Chirp service sets only variables the configuration knows, with values it accepts', async (t) => {
  const chirp = compose.services.chirp
  t.equal(chirp?.build, '.', 'built from this Dockerfile')
  const env = chirp?.environment ?? {}
  const known = new Set([...configSource.matchAll(/env\.([A-Z_]+)/g)].map((match) => match[1]))
  for (const name of Object.keys(env)) t.ok(known.has(name), `${name} is read by parseConfig`)
  // `${JWT_SECRET:-}` is empty unless the operator sets it: then the instances share one in the database.
  const values = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, value.startsWith('${') ? '' : value]),
  )
  const config = parseConfig(values)
  t.match(config.databaseUrl, /^postgres:\/\/.*@postgres:5432\//, 'the database is the postgres service')
  t.match(config.redisUrl, /^redis:\/\/redis:6379/, 'rate limits are shared through the redis service')
  t.equal(config.mediaDir, '/media', 'uploads on the shared volume')
  t.ok(
    chirp?.volumes?.some((volume) => volume.endsWith(':/media')),
    'which is mounted there',
  )
  t.equal(config.trustProxy, 1, 'the one proxy in front is believed')
})

await t.test('ports and paths agree with the Dockerfile and nginx', async (t) => {
  t.match(dockerfile, /PORT=3000/, 'the image listens on 3000')
  t.match(dockerfile, /EXPOSE 3000/)
  t.match(nginx, /server chirp:3000;/, 'nginx sends requests there')
  t.match(
    nginx,
    /location \/ \{[^}]*proxy_set_header Host \$http_host;/,
    "writes carry the browser's own Host, port included, which the cross-site check compares with Origin",
  )
  t.match(
    nginx,
    /location = \/api\/events \{[^}]*proxy_buffering off;[^}]*proxy_read_timeout 1h;/,
    'the event stream is not buffered, and may stay open',
  )
  t.match(
    nginx,
    /location \/api\/v1\/streaming \{[^}]*Upgrade \$http_upgrade;[^}]*Connection \$connection_upgrade;[^}]*proxy_buffering off;[^}]*proxy_read_timeout 1h;/,
    "Mastodon's streaming passes WebSocket upgrades on, is not buffered, and may stay open",
  )
  t.ok(
    compose.services.proxy?.volumes?.some((volume) => volume.startsWith('./deploy/nginx.conf:')),
    'nginx uses deploy/nginx.conf',
  )
})
