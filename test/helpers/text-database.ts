import type { Database, PostRecord, UserRecord } from '../../server/store/types.js'
import { uuidDatabase } from './uuid-database.js'

const NAMES: [string, string, string][] = [
  ['chloe_b', 'Chloé', 'Bérard'],
  ['chris.b', 'Chris', 'Bernard'],
  ['ada_l', 'Ada', 'Lovelace'],
  ['anna', 'Anna-Maria', 'Ängström'],
  ['kenji', 'Kenji', '佐藤'],
  ['zoe', 'Zoë', 'Ørsted'],
]

/** Texts that exercise the grammar: tags of several scripts and cases, mentions, links, accents and repeats. */
const TEXTS = [
  'Un café au lait #Café with @chloe_b',
  'CAFE crème, #cafe #CAFÉ',
  '東京の朝 #東京 @kenji',
  'Tea, not coffee. @nobody_here',
  'Read https://example.com/#anchor and @ada_l.',
  '#Москва #café #2024 #tea_time',
  'ﬁne Ｆｕｌｌ width and straße',
  'Attempt #14: crème brûlée @CHLOE_B',
  'mail ada_l@example.com about #tea_time',
  '',
]

/** Comment texts, some tagging their post: a tag in a comment puts the post under it too. */
const COMMENTS = ['#Café for me too', 'nice #tea_time', 'no tags here', '#東京 again']

/** uuidDatabase with names, post and comment texts of many kinds, for comparing search, tags and mentions on both stores. */
export function textDatabase(options: { users?: number; posts?: number } = {}): Database {
  const base = uuidDatabase({ users: 6, posts: 30, ...options })
  const users: UserRecord[] = base.users.map((user, i) => {
    const [username, firstName, lastName] = NAMES[i % NAMES.length] as [string, string, string]
    return { ...user, username: i < NAMES.length ? username : `${username}${i}`, firstName, lastName }
  })
  const posts: PostRecord[] = base.posts.map((post, i) => {
    const text = TEXTS[i % TEXTS.length] as string
    const comments = post.comments.map((comment, k) => ({
      ...comment,
      text: COMMENTS[(i + k) % COMMENTS.length] as string,
    }))
    return { ...post, content: text === '' && post.mediaUrl === '' ? 'plain words' : text, comments }
  })
  return { ...base, users, posts }
}
