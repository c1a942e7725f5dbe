import { MSG, badRequest, forbidden, notFound } from '../errors.js'
import type {
  LockedPost,
  NotificationIdentity,
  NotificationRecord,
  PostRecord,
  ReactionChange,
  Relation,
  StoreTx,
  UserSummaryRecord,
} from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { notificationOf, tellAdded, tellRetracted } from './notifier.js'
import { summaryOf } from './views.js'
import { NO_RELATION, blockedEitherWay, hears } from './visibility.js'
import { readableOf } from './audience-reads.js'
import { audienceOf } from './audience-events.js'

/** What one change of a batch came to: the post as it left it, or why it was refused. */
type Outcome = { record: PostRecord | undefined } | { refused: Error }

/** A change waiting for a batch, with how to answer whoever asked for it. */
interface Waiting extends ReactionChange {
  resolve: (record: PostRecord | undefined) => void
  reject: (error: unknown) => void
}

/** How many changes one transaction takes at most, so one slow batch does not hold everyone. */
const BATCH_MAX = 64

/**
 * Likes and unlikes, written in batches. Changes that arrive while a batch is being written wait, and the
 * next batch writes them together: one transaction, each step of which is one statement for the whole
 * batch (store.lockPosts, relationsBetween, setReactions). Under load that divides a like's statements
 * among everyone waiting; alone, a change waits for nothing and is a batch of one.
 *
 * A batch holds each post once: a second change of a post already in it waits for the next, so it reads
 * what the first left, as one after the other would. Each change is decided on its own by the same rule
 * a single like follows, from what the batch's reads found before any write; one that is refused
 * changes nothing and does not hold back the others. Should the transaction itself fail, every change in
 * it fails with that error, and none was written.
 */
/** What is done, in a batch's transaction, for each change it wrote: a like of a remote post goes to its server. */
export type ReactionWritten = (tx: StoreTx, change: ReactionChange, post: LockedPost, at: string) => Promise<void>

export function createLikeBatches(
  { store, now }: Pick<ServiceDeps, 'store' | 'now'>,
  {
    max = BATCH_MAX,
    atOnce = store.batchesAtOnce,
    written = async () => {},
  }: { max?: number; atOnce?: number; written?: ReactionWritten } = {},
) {
  const queue: Waiting[] = []
  /** Posts in a batch being written: a change of one waits for the batch after it. */
  const busy = new Set<string>()
  let open = 0

  /** The oldest waiting changes of posts in no batch, at most `max` and each post once; the rest keep their places. */
  function nextBatch(): Waiting[] {
    const batch: Waiting[] = []
    for (let i = 0; i < queue.length && batch.length < max;) {
      const change = queue[i] as Waiting
      if (busy.has(change.postId)) i++
      else {
        busy.add(change.postId)
        batch.push(change)
        queue.splice(i, 1)
      }
    }
    return batch
  }

  /** Starts as many batches as may be written at once and have changes to write. */
  function start() {
    while (open < atOnce) {
      const batch = nextBatch()
      if (batch.length === 0) return
      open++
      void write(batch).finally(() => {
        open--
        for (const change of batch) busy.delete(change.postId)
        start()
      })
    }
  }

  async function write(batch: readonly Waiting[]) {
    try {
      const outcomes = await store
        .transaction(async (tx) => {
          const decided = await decide(tx, batch, now().toISOString(), written)
          // A batch of refusals rolls back: a refused change leaves no trace, not even the log's note of a write.
          if (decided.every((outcome) => 'refused' in outcome)) throw new AllRefused(decided)
          return decided
        })
        .catch((error: unknown) => {
          if (error instanceof AllRefused) return error.outcomes
          throw error
        })
      batch.forEach((change, i) => {
        const outcome = outcomes[i] as Outcome
        if ('refused' in outcome) change.reject(outcome.refused)
        else change.resolve(outcome.record)
      })
    } catch (error) {
      for (const change of batch) change.reject(error)
    }
  }

  /** Likes (true) or unlikes the post, once the batch it joins has committed: the post as the change left it. */
  return function react(userId: string, postId: string, liked: boolean): Promise<PostRecord | undefined> {
    return new Promise((resolve, reject) => {
      queue.push({ userId, postId, liked, resolve, reject })
      start()
    })
  }
}

/**
 * One batch in one transaction, in four rounds. First the posts (locked), the people and who is
 * suspended. Then each post's author's relation to whoever changes it (it answers both whether the two
 * may interact and whether the author hears of it), the suspended people's likes, which the counts
 * the events carry leave out, as every view does, and whether each may read the post. Then the changes the rule allows. Last, the
 * notifications of what changed and the posts as the changes left them.
 */
async function decide(
  tx: StoreTx,
  batch: readonly ReactionChange[],
  at: string,
  onWritten: ReactionWritten,
): Promise<Outcome[]> {
  const [posts, people, suspensions] = await Promise.all([
    tx.lockPosts(batch.map((change) => change.postId)),
    tx.getUserSummaries([...new Set(batch.map((change) => change.userId))]),
    tx.listSuspended(at),
  ])
  const postOf = new Map(posts.map((post) => [post._id, post]))
  const personOf = new Map(people.map((person) => [person._id, person]))
  const suspended = new Set(suspensions.map((entry) => entry.userId))
  const asked = batch.flatMap((change) => {
    const post = postOf.get(change.postId)
    return post && post.authorId !== change.userId ? [[post.authorId, change.userId] as const] : []
  })
  const [found, theirs, readable] = await Promise.all([
    tx.relationsBetween(asked, at),
    suspended.size === 0 ? new Map<string, number>() : tx.countLikesBy([...postOf.keys()], [...suspended]),
    // A post outside its audience is not there for whoever may not read it, to like as to read.
    Promise.all(
      batch.map(async (change) => {
        const post = postOf.get(change.postId)
        return post !== undefined && (await readableOf(tx, [post], change.userId)).length > 0
      }),
    ),
  ])
  let next = 0
  const relations = batch.map((change) => {
    const post = postOf.get(change.postId)
    return post && post.authorId !== change.userId ? (found[next++] as Relation) : NO_RELATION
  })

  const refusals = batch.map((change, i) =>
    refusal(
      change,
      readable[i] ? postOf.get(change.postId) : undefined,
      personOf.has(change.userId),
      relations[i] as Relation,
      suspended,
    ),
  )
  const allowed = batch.filter((_, i) => refusals[i] === undefined)
  const written = await tx.setReactions(allowed, at)
  const changed = new Set(allowed.filter((_, i) => written[i]))

  // The events of what changed, then the notifications: a like's added where its author hears of it, an
  // unlike's taken back; each kind in one step, alongside the posts as the changes left them.
  const added: { record: NotificationRecord; me: UserSummaryRecord; post: LockedPost }[] = []
  const retracted: NotificationIdentity[] = []
  batch.forEach((change, i) => {
    const post = postOf.get(change.postId)
    const me = personOf.get(change.userId)
    if (!changed.has(change) || !post || !me) return
    // A suspended person's own change moves what their likes count for too.
    const delta = change.liked ? 1 : -1
    const uncounted = (theirs.get(post._id) ?? 0) + (suspended.has(me._id) ? delta : 0)
    tx.emit({
      name: 'post.liked',
      data: {
        postId: post._id,
        user: summaryOf(me),
        liked: change.liked,
        likeCount: post.likeCount + delta - uncounted,
        updatedAt: at,
      },
      by: me._id,
      audience: audienceOf(post),
    })
    if (!change.liked) retracted.push({ type: 'like', recipientId: post.authorId, actorId: me._id, postId: post._id })
    else if (post.authorId !== me._id && hears(relations[i] as Relation))
      added.push({ record: notificationOf(me, post.authorId, 'like', { post }, at), me, post })
  })
  const [records, unread, removed] = await Promise.all([
    tx.getPosts(batch.filter((change) => changed.has(change)).map((change) => change.postId)),
    added.length === 0 ? [] : tx.addNotifications(added.map((each) => each.record)),
    retracted.length === 0 ? [] : tx.removeNotificationsOf(retracted),
  ])
  await tellAdded(
    tx,
    added.map(({ record, me, post }) => ({ record, actor: me, subject: { post } })),
    unread,
  )
  await tellRetracted(tx, removed)
  for (const change of batch) {
    const post = postOf.get(change.postId)
    if (post && changed.has(change)) await onWritten(tx, change, post, at)
  }
  const recordOf = new Map(records.map((record) => [record._id, record]))
  return batch.map((change, i) => {
    const refused = refusals[i] ?? (changed.has(change) ? undefined : alreadySo(change))
    return refused ? { refused } : { record: recordOf.get(change.postId) }
  })
}

/** Thrown to roll back a batch that changes nothing, carrying each change's refusal. */
class AllRefused extends Error {
  constructor(readonly outcomes: Outcome[]) {
    super('every change of the batch was refused')
  }
}

/**
 * What the rule refuses before anything is written, in the order a single like checks it; undefined when
 * allowed. `post` is undefined for a post that is not there, or not there for whoever changes it.
 */
function refusal(
  change: ReactionChange,
  post: LockedPost | undefined,
  known: boolean,
  relation: Relation,
  suspended: ReadonlySet<string>,
) {
  // A suspended author's post is not there for anyone (visibility.ts, checkNotSuspended).
  if (!post || (post.authorId !== change.userId && suspended.has(post.authorId))) return notFound(MSG.postNotFound)
  if (blockedEitherWay(relation)) return forbidden(MSG.cannotInteract)
  if (!change.liked && post.likeCount === 0) return badRequest(MSG.likeBelowZero)
  if (!known) return notFound(MSG.userNotRegistered)
  return undefined
}

const alreadySo = (change: ReactionChange) => badRequest(change.liked ? MSG.alreadyLiked : MSG.alreadyDisliked)
