import t from 'tap'
import { VISIBILITIES, type Visibility } from '../../common/audience.js'
import { isListed, isShareable, mayRead } from '../../server/services/audience.js'

/**
 * The audience rule itself (DECISIONS §12), reader by reader: every read path and both stores' list
 * reads are held to this table elsewhere; here the rule answers it alone.
 */
const AUTHOR = 'author'
const post = (visibility: Visibility) => ({ authorId: AUTHOR, visibility, addressed: ['mentioned'] })

type Reader = 'author' | 'follower' | 'mentioned' | 'stranger' | 'signed out'
const readers: Record<Reader, [string | undefined, boolean]> = {
  author: [AUTHOR, false],
  follower: ['follower', true],
  mentioned: ['mentioned', false],
  stranger: ['stranger', false],
  'signed out': [undefined, false],
}
const sees: Record<Visibility, Reader[]> = {
  public: ['author', 'follower', 'mentioned', 'stranger', 'signed out'],
  unlisted: ['author', 'follower', 'mentioned', 'stranger', 'signed out'],
  followers: ['author', 'follower', 'mentioned'],
  direct: ['author', 'mentioned'],
}

for (const visibility of VISIBILITIES) {
  for (const [reader, [id, follows]] of Object.entries(readers) as [Reader, [string | undefined, boolean]][]) {
    const expected = sees[visibility].includes(reader)
    t.equal(
      mayRead(post(visibility), id, follows),
      expected,
      `${visibility}: ${reader} ${expected ? 'sees' : 'does not see'} it`,
    )
  }
}

t.ok(mayRead({ authorId: AUTHOR }, undefined, false), 'a post from before audiences is public')
t.notOk(mayRead({ authorId: AUTHOR, visibility: 'direct' }, 'follower', true), 'following does not open a direct post')
t.same(
  VISIBILITIES.filter((visibility) => isListed({ visibility })),
  ['public'],
  'only public posts are listed where strangers browse',
)
t.same(
  VISIBILITIES.filter((visibility) => isShareable({ visibility })),
  ['public', 'unlisted'],
  'only what anyone may read may be reposted or quoted',
)
