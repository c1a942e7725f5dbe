import { BlockList, isIP } from 'node:net'

/**
 * Which IP addresses the link fetcher may connect to: global unicast only. Everything a server reaches
 * without the internet is refused (private, loopback, link-local with the cloud metadata address,
 * unique-local, CGNAT, multicast, unspecified, reserved and documentation ranges), and so is an IPv6
 * address that carries an IPv4 one (mapped, NAT64, 6to4) whose IPv4 part is refused.
 */

const V4_REFUSED: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with the metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
]

const v4Refused = new BlockList()
for (const [network, prefix] of V4_REFUSED) v4Refused.addSubnet(network, prefix, 'ipv4')

/**
 * Within global unicast (2000::/3), the ranges that are not the internet: IETF protocol assignments
 * (Teredo among them), documentation. Outside 2000::/3 nothing is global unicast: loopback, unspecified,
 * unique-local (with the metadata address fd00:ec2::254), link-local, site-local and multicast.
 */
const V6_REFUSED: readonly [string, number][] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
]
const v6Refused = new BlockList()
for (const [network, prefix] of V6_REFUSED) v6Refused.addSubnet(network, prefix, 'ipv6')

/** The eight 16-bit groups of an IPv6 address, in any of its spellings (`::`, an IPv4 tail). */
function groupsOf(address: string): number[] {
  // URL writes an address canonically: lower case, `::` expanded where it belongs, an IPv4 tail as two groups.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  const [head = '', tail] = canonical.split('::')
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)))
  const left = parse(head)
  const right = tail === undefined ? [] : parse(tail)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`

/** The IPv4 address an IPv6 one carries by a standard prefix (mapped, NAT64, 6to4), or undefined. */
function embeddedV4(groups: readonly number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups
  // ::ffff:a.b.c.d, mapped
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return v4Of(g6, g7)
  // 64:ff9b::a.b.c.d, the well-known NAT64 prefix
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Of(g6, g7)
  // 2002:aabb:ccdd::/48, 6to4
  if (g0 === 0x2002) return v4Of(g1, g2)
  return undefined
}

/** Whether the fetcher may connect to `address` (an IPv4 or IPv6 literal, without brackets). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return !v4Refused.check(address, 'ipv4')
  // A zone index (`fe80::1%eth0`) only ever names a link-local address.
  if (family !== 6 || address.includes('%')) return false
  const groups = groupsOf(address)
  const v4 = embeddedV4(groups)
  if (v4 !== undefined) return isPublicAddress(v4)
  const first = groups[0] ?? 0
  // 2000::/3 is global unicast; whatever lies outside it is not the internet.
  if ((first & 0xe000) !== 0x2000) return false
  return !v6Refused.check(address, 'ipv6')
}
