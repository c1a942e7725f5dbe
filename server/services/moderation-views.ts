import { versionOfSnapshot } from './post-history.js'
import type { Static } from '@sinclair/typebox'
import type { AuditEntrySchema, FiledReport, ModeratedUserSchema, Report } from '../schemas/moderation.js'
import type { Comment, Post } from '../schemas/posts.js'
import type { UserSummary } from '../schemas/users.js'
import type { AuditEntryRecord, ReportRecord, StoreReader, UserRecord } from '../store/types.js'
import { roleOf } from './moderation-access.js'
import { postViews } from './post-views.js'
import { lookup, summaryById, summaryOf, toComment } from './views.js'

type Target = Post | Comment | UserSummary

/** The target as it is now, compact as the lists show posts; undefined once it is gone. */
export async function currentTarget(
  store: StoreReader,
  target: Pick<ReportRecord, 'targetType' | 'targetId' | 'postId'>,
): Promise<Target | undefined> {
  if (target.targetType === 'post') {
    const post = await store.getPost(target.targetId)
    return post && (await postViews(store, [post], { userId: undefined, compact: true }))[0]
  }
  if (target.targetType === 'comment') {
    const comment = target.postId === undefined ? undefined : await store.getComment(target.postId, target.targetId)
    if (!comment) return undefined
    const users = await lookup(store, [comment.authorId, ...comment.upvotedBy, ...comment.downvotedBy])
    return toComment(comment, users)
  }
  const [user] = await store.getUserSummaries([target.targetId])
  return user && summaryOf(user)
}

type People = Awaited<ReturnType<typeof lookup>>

async function reportView(store: StoreReader, report: ReportRecord, people: People): Promise<Report> {
  const now = await currentTarget(store, report)
  const reported = report.targetType === 'post' ? versionOfSnapshot(report.snapshot) : undefined
  return {
    _id: report._id,
    reporter: summaryById(report.reporterId, people),
    targetType: report.targetType,
    targetId: report.targetId,
    ...(report.postId !== undefined ? { postId: report.postId } : {}),
    subjectId: report.subjectId,
    target: now ?? (report.snapshot as Target),
    removed: now === undefined,
    ...(reported ? { targetVersion: reported } : {}),
    category: report.category,
    comment: report.comment,
    status: report.status,
    ...(report.action !== undefined ? { action: report.action } : {}),
    ...(report.note !== undefined ? { note: report.note } : {}),
    ...(report.resolvedBy !== undefined ? { resolvedBy: summaryById(report.resolvedBy, people) } : {}),
    createdAt: report.createdAt,
    ...(report.resolvedAt !== undefined ? { resolvedAt: report.resolvedAt } : {}),
  }
}

const peopleOf = (reports: readonly ReportRecord[]) =>
  reports.flatMap((report) => [report.reporterId, ...(report.resolvedBy ? [report.resolvedBy] : [])])

/** Reports as moderators see them: the reporter, the target now (or as it was when removed), who resolved it. */
export async function reportViews(store: StoreReader, reports: readonly ReportRecord[]): Promise<Report[]> {
  const people = await lookup(store, peopleOf(reports))
  return Promise.all(reports.map((report) => reportView(store, report, people)))
}

export async function oneReportView(store: StoreReader, report: ReportRecord): Promise<Report> {
  return reportView(store, report, await lookup(store, peopleOf([report])))
}

/** The report as its reporter gets it back: nothing of the target but its id, so nothing is read of it. */
export async function filedReportView(store: StoreReader, report: ReportRecord): Promise<FiledReport> {
  return {
    _id: report._id,
    reporter: summaryById(report.reporterId, await lookup(store, [report.reporterId])),
    targetType: report.targetType,
    targetId: report.targetId,
    ...(report.postId !== undefined ? { postId: report.postId } : {}),
    category: report.category,
    comment: report.comment,
    status: report.status,
    createdAt: report.createdAt,
  }
}

export function moderatedUser(user: UserRecord): Static<typeof ModeratedUserSchema> {
  return {
    ...summaryOf(user),
    role: roleOf(user),
    pending: user.pending === true,
    suspension: user.suspension ?? null,
    createdAt: user.createdAt,
  }
}

export async function auditViews(
  store: StoreReader,
  entries: readonly AuditEntryRecord[],
): Promise<Static<typeof AuditEntrySchema>[]> {
  const people = await lookup(
    store,
    entries.flatMap((entry) => [
      ...(entry.actorId === null ? [] : [entry.actorId]),
      ...(entry.targetType === 'user' ? [entry.targetId] : []),
    ]),
  )
  const targetOf = (entry: AuditEntryRecord) => {
    const person = entry.targetType === 'user' ? people.get(entry.targetId) : undefined
    return person ? { target: summaryOf(person) } : {}
  }
  return entries.map((entry) => ({
    _id: entry._id,
    actor: entry.actorId === null ? ('cli' as const) : summaryById(entry.actorId, people),
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    ...targetOf(entry),
    ...(entry.reason !== undefined ? { reason: entry.reason } : {}),
    createdAt: entry.createdAt,
  }))
}
