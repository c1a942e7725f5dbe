/**
 * Custom emoji (DECISIONS §15): the community's images by shortcode. The shortcode's rule (2 to 32 of
 * A-Z, a-z, 0-9 and _) is kept by the service; the key keeps it unique.
 */
export const version = 62
export const name = 'custom_emojis'

export const sql = `
CREATE TABLE custom_emojis (
  shortcode text COLLATE "C" PRIMARY KEY,
  url text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX custom_emojis_url ON custom_emojis (url);
`
