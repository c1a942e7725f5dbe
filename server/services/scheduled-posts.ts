import { randomUUID } from 'node:crypto'
import { LIMITS } from '../../common/limits.js'
import { AppError, MSG, badRequest, notFound } from '../errors.js'
import type { ScheduledPost } from '../schemas/post-plans.js'
import type { PostData } from '../schemas/posts.js'
import type { ClaimedJob, ScheduledPostData, ScheduledPostRecord } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { PermanentJobError, newJob, type JobRun } from './jobs.js'
import type { PostsService } from './posts.js'

/**
 * Scheduled posts (DECISIONS §15): a post kept with the time it is to be published, at least
 * `minSeconds` ahead, listed, moved and cancelled by its author until a `scheduled-post` job publishes
 * it. Publishing takes the scheduled post and writes the post in one transaction, so however many jobs
 * and instances reach it, it is published once; a job that comes before its post's time (the post was
 * moved later, and has a job of its own for the new time) or after it is gone does nothing.
 */

export interface ScheduledPostsDeps extends ServiceDeps {
  posts: Pick<PostsService, 'check' | 'draft' | 'publishDrawn'>
  /** How far ahead a post must be scheduled, in seconds (SCHEDULE_MIN_SECONDS, for tests). */
  minSeconds?: number | undefined
}

/** A page of someone's scheduled posts, the soonest first: after `maxId`, or the last before `minId`. */
export interface ScheduledWindow {
  limit: number
  maxId?: string | undefined
  minId?: string | undefined
}

const DEFAULT_MIN_SECONDS = 300

const jobOf = (scheduled: ScheduledPostRecord, at: string) =>
  newJob('scheduled-post', { userId: scheduled.userId, scheduledId: scheduled._id }, at)

const scheduledView = ({ _id, scheduledAt, postData }: ScheduledPostRecord): ScheduledPost => ({
  _id,
  scheduledAt,
  postData: { ...postData },
})

/** What a post asked for will publish: its own fields, its images as `media`, nothing of the original mock's aliases. */
function plannedData(data: PostData, media: ScheduledPostData['media']): ScheduledPostData {
  return {
    content: data.content ?? '',
    ...(media && media.length > 0 ? { media } : {}),
    ...(data.spoilerText ? { spoilerText: data.spoilerText } : {}),
    ...(data.poll ? { poll: { options: [...data.poll.options], days: data.poll.days } } : {}),
    ...(data.quoteOf !== undefined ? { quoteOf: data.quoteOf } : {}),
    ...(data.visibility !== undefined ? { visibility: data.visibility } : {}),
    ...(data.inReplyTo !== undefined ? { inReplyTo: data.inReplyTo } : {}),
  }
}

export function createScheduledPostsService({
  store,
  now,
  posts,
  minSeconds = DEFAULT_MIN_SECONDS,
}: ScheduledPostsDeps) {
  /** The time asked for, as stored; one less than `minSeconds` ahead is refused. */
  function checkTime(scheduledAt: string): string {
    const at = Date.parse(scheduledAt)
    if (!Number.isFinite(at) || at < now().getTime() + minSeconds * 1000) throw badRequest(MSG.scheduleTooSoon)
    return new Date(at).toISOString()
  }

  async function mustGet(userId: string, id: string) {
    const scheduled = await store.getScheduledPost(userId, id)
    if (!scheduled) throw notFound(MSG.scheduledPostNotFound)
    return scheduled
  }

  return {
    /** Keeps the post for later: checked now as a post written now would be, published at `scheduledAt`. */
    async schedule(userId: string, data: PostData & { scheduledAt: string }) {
      const scheduledAt = checkTime(data.scheduledAt)
      const media = await posts.check(userId, data)
      const record: ScheduledPostRecord = {
        _id: randomUUID(),
        userId,
        scheduledAt,
        postData: plannedData(data, media),
        createdAt: now().toISOString(),
      }
      await store.transaction(async (tx) => {
        // Held until the commit, so two schedulings at once are counted one after the other.
        await tx.lockUser(userId)
        if ((await tx.listScheduledPosts(userId)).length >= LIMITS.scheduledPosts)
          throw badRequest(MSG.tooManyScheduledPosts)
        if (!(await tx.putScheduledPost(record))) throw notFound(MSG.userNotRegistered)
        await tx.enqueueJob(jobOf(record, scheduledAt), record.createdAt)
      })
      return { scheduledPost: scheduledView(record) }
    },

    /** The person's scheduled posts, the soonest first, a page at a time. */
    async list(userId: string, { limit, maxId, minId }: ScheduledWindow) {
      const all = await store.listScheduledPosts(userId)
      const after = maxId === undefined ? -1 : all.findIndex((each) => each._id === maxId)
      if (minId !== undefined) {
        const before = all.findIndex((each) => each._id === minId)
        const end = before === -1 ? all.length : before
        return all.slice(Math.max(0, end - limit), end).map(scheduledView)
      }
      return (maxId !== undefined && after === -1 ? [] : all.slice(after + 1, after + 1 + limit)).map(scheduledView)
    },

    async get(userId: string, id: string) {
      return { scheduledPost: scheduledView(await mustGet(userId, id)) }
    },

    /** Moves the post to another time, at least `minSeconds` ahead; its job for the old time then does nothing. */
    async reschedule(userId: string, id: string, scheduledAt: string) {
      const at = checkTime(scheduledAt)
      const moved = await store.transaction(async (tx) => {
        const scheduled = await tx.getScheduledPost(userId, id)
        if (!scheduled) throw notFound(MSG.scheduledPostNotFound)
        const next = { ...scheduled, scheduledAt: at }
        await tx.putScheduledPost(next)
        await tx.enqueueJob(jobOf(next, at), now().toISOString())
        return next
      })
      return { scheduledPost: scheduledView(moved) }
    },

    /** Forgets the post: it is never published. */
    async cancel(userId: string, id: string) {
      await store.transaction(async (tx) => {
        if (!(await tx.removeScheduledPost(userId, id))) throw notFound(MSG.scheduledPostNotFound)
      })
      return {}
    },

    /**
     * Runs a `scheduled-post` job: publishes the post when its time has come, as written at this moment.
     * A post that can no longer be written (what it quotes is gone) stays scheduled, and its job fails
     * with the reason; its author may move it (a new job) or cancel it.
     */
    async runJob(job: ClaimedJob, run: JobRun) {
      const userId = String(job.payload.userId)
      const scheduledId = String(job.payload.scheduledId)
      const at = now().toISOString()
      const scheduled = await store.getScheduledPost(userId, scheduledId)
      if (!scheduled || scheduled.scheduledAt > at) return
      try {
        const drawn = await posts.draft(userId, scheduled.postData, at)
        await store.transaction(async (tx) => {
          const taken = await tx.takeScheduledPost(userId, scheduledId, at)
          if (taken) await posts.publishDrawn(tx, userId, taken.postData, drawn, at)
          await run.complete(tx)
        })
      } catch (error) {
        if (error instanceof AppError) throw new PermanentJobError(error.message)
        throw error
      }
    },
  }
}

export type ScheduledPostsService = ReturnType<typeof createScheduledPostsService>
