/**
 * Profiles with a display name and a banner, and the profile's Media and Likes tabs:
 *
 * - `users.display_name` and `users.banner_url`, null when never set (the view falls back to the names,
 *   and shows no banner).
 * - `post_reactions_liked` walks a user's likes from the most recent, for `GET /api/users/{username}/likes`.
 * - `posts_author_media` holds only posts with an image, so the Media tab reads no post without one.
 */
export const version = 16
export const name = 'profile_media'

export const sql = `
ALTER TABLE users ADD COLUMN display_name text NULL;
ALTER TABLE users ADD COLUMN banner_url text NULL;
CREATE INDEX post_reactions_liked ON post_reactions (user_id, seq) WHERE liked;
CREATE INDEX posts_author_media ON posts (author_id, created_at, id) WHERE media_url <> '';
`
