/**
 * The preview card of a post's first https link, `{ url, title, description, image }`, set once the
 * server has fetched the page; NULL until then, and for posts without one.
 */
export const version = 13
export const name = 'link_cards'

export const sql = `
ALTER TABLE posts ADD COLUMN card jsonb;
`
