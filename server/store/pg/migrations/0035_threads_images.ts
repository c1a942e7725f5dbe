/**
 * Threads as trees and posts with up to four images (DECISIONS §15, §17):
 * - `comments.reply_to` now names the comment a reply answers at any depth. Replies written while threads
 *   were one level deep name the root they were filed under, which is a true ancestor: they read as
 *   replies to the root, so nothing is rewritten.
 * - `posts.more_media` holds a post's images after the first (`media_url` and its columns keep the first,
 *   for the clients of the original mock), as `{ "images": [{ url, alt?, width?, height? }, …] }`; NULL when
 *   the post has one image or none, which every post written before has. Its index finds the posts that
 *   show an upload, as `media_url`'s does.
 * - `users.alt_text_reminder`: whether the composer asks before posting an image without a description.
 */
export const version = 35
export const name = 'threads_images'

export const sql = `
ALTER TABLE posts ADD COLUMN more_media jsonb;
CREATE INDEX posts_more_media ON posts USING gin (more_media jsonb_path_ops) WHERE more_media IS NOT NULL;

ALTER TABLE users ADD COLUMN alt_text_reminder boolean NOT NULL DEFAULT true;
`
