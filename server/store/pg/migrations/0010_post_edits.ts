/**
 * When a post was last edited by its author, so a client can mark it "Edited": `updated_at` moves with
 * every like too. Posts edited before this migration carry none, as nothing recorded it.
 */
export const version = 10
export const name = 'post_edits'

export const sql = `
ALTER TABLE posts ADD COLUMN edited_at timestamptz;
`
