import type { CustomEmojiRecord } from '../types.js'
import type { Queryable } from './connect.js'

/** Custom emoji on PostgreSQL (migration 62). */

interface EmojiRow {
  shortcode: string
  url: string
  created_at: Date
}

const emojiOf = (row: EmojiRow): CustomEmojiRecord => ({
  _id: row.shortcode,
  url: row.url,
  createdAt: row.created_at.toISOString(),
})

/** The row of an emoji, as inserted here and by a move from the embedded store. */
export const emojiRowOf = (emoji: CustomEmojiRecord) => ({
  shortcode: emoji._id,
  url: emoji.url,
  created_at: emoji.createdAt,
})

export async function listCustomEmojis(sql: Queryable): Promise<CustomEmojiRecord[]> {
  const rows = await sql<EmojiRow[]>`SELECT * FROM custom_emojis ORDER BY shortcode`
  return rows.map(emojiOf)
}

export async function getCustomEmoji(sql: Queryable, shortcode: string): Promise<CustomEmojiRecord | undefined> {
  const [row] = await sql<EmojiRow[]>`SELECT * FROM custom_emojis WHERE shortcode = ${shortcode}`
  return row && emojiOf(row)
}

export async function addCustomEmoji(sql: Queryable, emoji: CustomEmojiRecord): Promise<boolean> {
  const row = emojiRowOf(emoji)
  const done = await sql`
    INSERT INTO custom_emojis (shortcode, url, created_at) VALUES (${row.shortcode}, ${row.url}, ${row.created_at})
    ON CONFLICT (shortcode) DO NOTHING`
  return done.count > 0
}

export async function removeCustomEmoji(sql: Queryable, shortcode: string): Promise<CustomEmojiRecord | undefined> {
  const [row] = await sql<EmojiRow[]>`DELETE FROM custom_emojis WHERE shortcode = ${shortcode} RETURNING *`
  return row && emojiOf(row)
}
