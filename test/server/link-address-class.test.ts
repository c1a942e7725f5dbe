import t from 'tap'
import { isPublicAddress } from '../../server/services/address-class.js'

/** The link fetcher's address rule: global unicast only, whatever spelling an address comes in. */

await t.test('IPv4: public addresses pass, every range that is not the internet is refused', async (t) => {
  for (const address of ['93.184.216.34', '1.1.1.1', '8.8.8.8', '100.63.255.255', '100.128.0.0', '172.15.255.255'])
    t.ok(isPublicAddress(address), `${address} is public`)
  const refused = {
    unspecified: '0.0.0.0',
    'this network': '0.1.2.3',
    private: '10.0.0.1',
    'private, 172.16/12 low edge': '172.16.0.0',
    'private, 172.16/12 high edge': '172.31.255.255',
    'private 192.168': '192.168.1.1',
    'CGNAT low edge': '100.64.0.0',
    'CGNAT high edge': '100.127.255.255',
    loopback: '127.0.0.1',
    'loopback, elsewhere in 127/8': '127.255.255.254',
    'link-local': '169.254.1.1',
    'cloud metadata': '169.254.169.254',
    'IETF protocol assignments': '192.0.0.8',
    documentation: '192.0.2.1',
    benchmarking: '198.18.0.1',
    multicast: '224.0.0.1',
    'multicast high edge': '239.255.255.255',
    reserved: '240.0.0.1',
    broadcast: '255.255.255.255',
  }
  for (const [what, address] of Object.entries(refused)) t.notOk(isPublicAddress(address), `${what}: ${address}`)
})

await t.test(
  'IPv6: global unicast passes; loopback, unspecified, local, multicast and reserved are refused',
  async (t) => {
    for (const address of ['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888'])
      t.ok(isPublicAddress(address), `${address} is public`)
    const refused = {
      loopback: '::1',
      'loopback, written out': '0:0:0:0:0:0:0:1',
      unspecified: '::',
      'unique-local': 'fc00::1',
      'unique-local fd': 'fd12:3456::1',
      'cloud metadata (AWS IPv6)': 'fd00:ec2::254',
      'link-local': 'fe80::1',
      'link-local with a zone': 'fe80::1%eth0',
      'site-local': 'fec0::1',
      multicast: 'ff02::1',
      documentation: '2001:db8::1',
      Teredo: '2001:0:4136:e378::1',
      'discard prefix': '100::1',
      'IPv4-compatible (deprecated)': '::127.0.0.1',
    }
    for (const [what, address] of Object.entries(refused)) t.notOk(isPublicAddress(address), `${what}: ${address}`)
  },
)

await t.test('IPv6 carrying IPv4: judged by the IPv4 address it carries', async (t) => {
  t.notOk(isPublicAddress('::ffff:127.0.0.1'), 'mapped loopback, dotted')
  t.notOk(isPublicAddress('::ffff:7f00:1'), 'mapped loopback, in hex')
  t.notOk(isPublicAddress('::FFFF:169.254.169.254'), 'mapped metadata, upper case')
  t.notOk(isPublicAddress('0:0:0:0:0:ffff:a00:1'), 'mapped 10.0.0.1, written out')
  t.notOk(isPublicAddress('64:ff9b::10.0.0.1'), 'NAT64 of a private address')
  t.notOk(isPublicAddress('2002:c0a8:0101::1'), '6to4 of 192.168.1.1')
  t.ok(isPublicAddress('::ffff:93.184.216.34'), 'mapped public address')
  t.ok(isPublicAddress('64:ff9b::808:808'), 'NAT64 of a public address')
})

await t.test('what is not an address is refused', async (t) => {
  for (const text of ['', 'localhost', 'example.com', '1.2.3', '::g', '256.1.1.1'])
    t.notOk(isPublicAddress(text), JSON.stringify(text))
})
