/**
 * Deleting an upload once nothing shows it (DECISIONS §16, services/media-deletion.ts) asks every place
 * that may show it, each by an index: a card's image, an avatar, a banner (a post's image has
 * `posts_media`, migration 14). Numbers 21 to 23 are other changes'.
 */
export const version = 24
export const name = 'media_uses'

export const sql = `
CREATE INDEX posts_card_image ON posts ((card->>'image')) WHERE card->>'image' <> '';
CREATE INDEX users_avatar ON users (avatar_url);
CREATE INDEX users_banner ON users (banner_url) WHERE banner_url IS NOT NULL;
`
