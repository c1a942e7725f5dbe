import { randomUUID } from 'node:crypto'
import { MSG, badRequest, notFound, tooManyRequests } from '../errors.js'
import type { ReportBody, ResolveBody } from '../schemas/moderation.js'
import type { PageRequest, ReportRecord, ReportStatus, StoreTx } from '../store/types.js'
import type { ServiceDeps } from './deps.js'
import { audit, type StaffMember } from './moderation-access.js'
import { currentTarget, filedReportView, oneReportView, reportViews } from './moderation-views.js'
import { dropUploads, uploadsShownIn } from './media-deletion.js'
import { deleteCommentIn, deletePostIn } from './removals.js'
import { suspendIn } from './suspensions.js'
import { checkReportText } from './content-rules.js'
import { checkMayRead } from './audience-reads.js'

export interface ReportsDeps extends ServiceDeps {
  /** RATE_LIMIT=false lifts the hourly cap on reports too. */
  rateLimit: boolean
}

/** Reports a person may make in an hour (DECISIONS §8). */
const REPORTS_PER_HOUR = 10
const HOUR_MS = 3_600_000

/**
 * A post the reporter may report: one that exists and that they may read, as its page says (DECISIONS
 * §12); any other is a 404 "Post not found", as if it did not exist. A moderator so sees a direct message
 * only when one of its people reports it, and then only it. The audience alone decides here: a block or a
 * suspension does not keep a report out (DECISIONS §11: the blocker may report what they blocked, and a
 * suspended person's post may still be reported).
 */
async function reportablePost(tx: StoreTx, reporterId: string, postId: string) {
  const post = await tx.getPost(postId)
  if (!post) throw notFound(MSG.postNotFound)
  await checkMayRead(tx, post, reporterId)
  return post
}

/** Whose content the target is: its author, or the reported user; 404 when there is no such target. */
async function subjectOf(tx: StoreTx, reporterId: string, body: ReportBody): Promise<string> {
  if (body.targetType === 'user') {
    const user = await tx.getUser(body.targetId)
    if (!user || user.pending) throw notFound(MSG.userNotFound)
    return user._id
  }
  if (body.targetType === 'post') return (await reportablePost(tx, reporterId, body.targetId)).authorId
  if (body.postId === undefined) throw badRequest('postId is required when targetType is comment')
  await reportablePost(tx, reporterId, body.postId)
  const comment = await tx.getComment(body.postId, body.targetId)
  if (!comment) throw notFound(MSG.commentNotFound)
  return comment.authorId
}

/** Removes what a report names: the post, or the comment; a user report has nothing to remove. */
async function removeTarget(tx: StoreTx, report: ReportRecord, at: Date) {
  if (report.targetType === 'user') throw badRequest(MSG.nothingToRemove)
  if (report.targetType === 'post') {
    const post = await tx.lockPost(report.targetId)
    if (post) await deletePostIn(tx, post, at)
    return
  }
  const post = await tx.lockPost(report.postId ?? '')
  if (post) {
    const comment = await tx.getComment(post._id, report.targetId)
    if (comment) await deleteCommentIn(tx, post, comment)
  }
}

export function createReportsService({ store, now, rateLimit }: ReportsDeps) {
  return {
    async create(reporterId: string, body: ReportBody) {
      if (body.comment !== undefined) checkReportText('comment', body.comment)
      const report = await store.transaction(async (tx) => {
        const at = now()
        const subjectId = await subjectOf(tx, reporterId, body)
        if (subjectId === reporterId) throw badRequest(MSG.reportOwn)
        // Held until the commit, so a reporter's requests at once are counted one after another.
        await tx.lockUser(reporterId)
        const since = new Date(at.getTime() - HOUR_MS).toISOString()
        if (rateLimit && (await tx.countReportsSince(reporterId, since)) >= REPORTS_PER_HOUR) throw tooManyRequests()
        const snapshot = await currentTarget(tx, body)
        const record: ReportRecord = {
          _id: randomUUID(),
          reporterId,
          targetType: body.targetType,
          targetId: body.targetId,
          ...(body.targetType === 'comment' && body.postId !== undefined ? { postId: body.postId } : {}),
          subjectId,
          snapshot: snapshot ?? {},
          category: body.category,
          comment: body.comment ?? '',
          status: 'open',
          createdAt: at.toISOString(),
        }
        await tx.addReport(record)
        const view = await oneReportView(tx, record)
        const open = await tx.countOpenReports()
        for (const staffId of await tx.listStaffIds()) {
          tx.emit({ name: 'report.created', data: { report: view, open }, to: staffId })
        }
        return record
      })
      return { report: await filedReportView(store, report) }
    },

    async list(_staff: StaffMember, query: PageRequest & { status?: ReportStatus }) {
      const page = await store.listReports(query.status ?? 'open', { limit: query.limit ?? 20, cursor: query.cursor })
      const [reports, open] = await Promise.all([reportViews(store, page.items), store.countOpenReports()])
      return { reports, nextCursor: page.nextCursor, open }
    },

    /** Dismisses, removes the target, or suspends its author; answers the resolved report and who was suspended. */
    async resolve(actor: StaffMember, reportId: string, body: ResolveBody) {
      if (body.note !== undefined) checkReportText('note', body.note)
      const { report, suspended } = await store.transaction(async (tx) => {
        const at = now().toISOString()
        const found = await tx.getReport(reportId)
        if (!found) throw notFound(MSG.reportNotFound)
        if (found.status !== 'open') throw badRequest(MSG.reportResolved)
        const note = body.note ?? ''
        let suspended: string | undefined
        if (body.action === 'remove') {
          await removeTarget(tx, found, now())
          await audit(
            tx,
            actor._id,
            `remove-${found.targetType}`,
            { type: found.targetType, id: found.targetId },
            at,
            note,
          )
        } else if (body.action === 'suspend') {
          const reason = note || `Reported for ${found.category}`
          await suspendIn(tx, actor, found.subjectId, { reason }, at)
          suspended = found.subjectId
        }
        const resolution = { action: body.action, note, resolvedBy: actor._id, resolvedAt: at }
        const report = await tx.resolveReport(found._id, resolution)
        if (!report) throw badRequest(MSG.reportResolved)
        // The evidence it kept need be kept no longer: what nothing else shows goes.
        await dropUploads(tx, uploadsShownIn(found.snapshot), at)
        await audit(tx, actor._id, `resolve-${body.action}`, { type: 'report', id: found._id }, at, note)
        return { report, suspended }
      })
      return { report: await oneReportView(store, report), suspended }
    },
  }
}

export type ReportsService = ReturnType<typeof createReportsService>
