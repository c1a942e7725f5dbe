/**
 * Direct messages (DECISIONS §12): conversations of direct posts. Named `direct_*` apart from migration
 * 12's "conversations" (comment replies, content warnings and polls).
 *
 * - `direct_conversations` is one conversation per set of people: `participant_ids`, sorted, is the set it
 *   was opened for and never changes, and its unique index makes two first messages between the same people
 *   at once open one conversation.
 * - `direct_conversation_members` is each participant's own view of it: when a post last reached them in
 *   it (their list's order, by the partial index of the conversations they have not hidden) and whether they
 *   hid it. A deleted account's rows go with it; the others' stay.
 * - `direct_unread` holds each post that reached a participant and that they have not read: a count of rows,
 *   so a deleted post (by cascade) or a deleted participant is simply no longer counted.
 * - `posts.conversation_id` files a direct post into its conversation; `posts.in_reply_to` names the
 *   direct post it answers (no foreign key: the answered post may be deleted, as a quoted one may).
 */
export const version = 22
export const name = 'direct_conversations'

export const sql = `
CREATE TABLE direct_conversations (
  id uuid PRIMARY KEY,
  participant_ids uuid[] NOT NULL UNIQUE
);
CREATE TABLE direct_conversation_members (
  conversation_id uuid NOT NULL REFERENCES direct_conversations ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users ON DELETE CASCADE,
  active_at timestamptz NOT NULL,
  hidden boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, conversation_id)
);
CREATE INDEX direct_conversation_members_conversation ON direct_conversation_members (conversation_id);
CREATE INDEX direct_conversation_members_shown
  ON direct_conversation_members (user_id, active_at DESC, conversation_id DESC) WHERE NOT hidden;
CREATE TABLE direct_unread (
  user_id uuid NOT NULL,
  conversation_id uuid NOT NULL,
  post_id uuid NOT NULL REFERENCES posts ON DELETE CASCADE,
  PRIMARY KEY (user_id, conversation_id, post_id),
  FOREIGN KEY (user_id, conversation_id) REFERENCES direct_conversation_members ON DELETE CASCADE
);
CREATE INDEX direct_unread_post ON direct_unread (post_id);
ALTER TABLE posts ADD COLUMN conversation_id uuid;
ALTER TABLE posts ADD COLUMN in_reply_to uuid;
CREATE INDEX posts_conversation ON posts (conversation_id, created_at DESC, id DESC) WHERE conversation_id IS NOT NULL;
`
