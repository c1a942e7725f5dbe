import { crc32, deflateSync } from 'node:zlib'

export function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

type Rgb = readonly [number, number, number]

/**
 * A diagonal gradient with soft circles, as an RGB PNG. The seeded posts need real images, and
 * drawing them here keeps binary files out of the repository.
 */
export function gradientPng(width: number, height: number, from: Rgb, to: Rgb, seed: number): Buffer {
  const circles = Array.from({ length: 5 }, (_, i) => ({
    x: ((seed * 97 + i * 211) % 100) / 100,
    y: ((seed * 53 + i * 137) % 100) / 100,
    r: 0.08 + (((seed + i) * 29) % 12) / 100,
  }))
  const raw = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1)
    raw[row] = 0
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2
      let light = 0
      for (const c of circles) {
        const dx = x / width - c.x
        const dy = (y / height - c.y) * (height / width)
        if (dx * dx + dy * dy < c.r * c.r) light += 0.12
      }
      for (let ch = 0; ch < 3; ch++) {
        const base = (from[ch] as number) + ((to[ch] as number) - (from[ch] as number)) * t
        raw[row + 1 + x * 3 + ch] = Math.min(255, Math.round(base + (255 - base) * light))
      }
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 2
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
