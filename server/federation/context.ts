import type { AccountDeletion } from '../services/account-deletion.js'
import type { FederationFollows } from '../services/federation-follows.js'
import type { RemoteComments } from '../services/remote-comments.js'
import type { RemoteReactions } from '../services/remote-reactions.js'
import type { FederationPeople } from '../services/federation-people.js'
import type { RemotePeople } from '../services/remote-people.js'
import type { RemotePosts } from '../services/remote-posts.js'

/** What every dispatcher and listener is handed (Fedify's context data): the services it translates from. */
export interface ChirpFederationData {
  people: FederationPeople
  /** People of other servers, found and kept as users. */
  remote: RemotePeople
  /** Follows with people of other servers. */
  follows: FederationFollows
  /** Posts both ways. */
  posts: RemotePosts
  /** Comments both ways, as replies. */
  comments: RemoteComments
  /** Likes and reposts both ways. */
  reactions: RemoteReactions
  /** Accounts going: a remote person's Delete of themselves. */
  deletion: AccountDeletion
}
