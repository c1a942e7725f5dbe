import { CURSOR, pageOf, type SortKey } from './cursor.js'
import { SortedList } from './sorted-list.js'
import type { AuditEntryRecord, InviteRecord, ReportRecord, ReportStatus } from './moderation-types.js'
import type { Page, PageRequest } from './types.js'

type Dated = { readonly _id: string; readonly createdAt: string }

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const byCreation: SortKey<Dated> = {
  of: (record) => [record.createdAt, record._id],
  parts: CURSOR.byTime,
  compare: (a, b) => order(a.createdAt, b.createdAt) || order(a._id, b._id),
}

/** One kind of record by id, and in order of creation for its pages, newest first. */
class DatedRecords<T extends Dated> {
  readonly byId = new Map<string, T>()
  readonly #list = new SortedList<T>(byCreation)

  load(records: readonly T[]): void {
    this.byId.clear()
    for (const record of records) this.byId.set(record._id, Object.freeze(record))
    this.#list.reset([...this.byId.values()])
  }
  get(id: string): T | undefined {
    return this.byId.get(id)
  }
  put(record: T): void {
    this.#list.upsert(this.byId.get(record._id), record)
    this.byId.set(record._id, record)
  }
  delete(id: string): void {
    const previous = this.byId.get(id)
    if (previous) this.#list.remove(previous)
    this.byId.delete(id)
  }
  newestFirst(request: PageRequest): Page<T> {
    return pageOf(this.#list.items, byCreation, -1, request)
  }
}

/**
 * The embedded store's moderation records: reports (open and resolved apart, so the queue of open ones
 * never walks the resolved), the audit log and invites.
 */
export class ModerationIndex {
  readonly audit = new DatedRecords<AuditEntryRecord>()
  readonly invites = new DatedRecords<InviteRecord>()
  readonly #reports = { open: new DatedRecords<ReportRecord>(), resolved: new DatedRecords<ReportRecord>() }
  /** Each reporter's reports, by time, for the hourly limit. */
  readonly #madeBy = new Map<string, string[]>()

  load(reports: readonly ReportRecord[], audit: readonly AuditEntryRecord[], invites: readonly InviteRecord[]) {
    this.#reports.open.load(reports.filter((report) => report.status === 'open'))
    this.#reports.resolved.load(reports.filter((report) => report.status === 'resolved'))
    this.#madeBy.clear()
    for (const report of [...reports].sort((a, b) => order(a.createdAt, b.createdAt))) this.#madeAt(report)
    this.audit.load(audit)
    this.invites.load(invites)
  }

  /**
   * Puts and deletes reports as a transaction stages them. A report goes only with an account: its
   * reporter's, or the one it is about; it then no longer counts against its reporter either.
   */
  readonly reports = {
    get: (id: string): ReportRecord | undefined => this.#reports.open.get(id) ?? this.#reports.resolved.get(id),
    put: (report: ReportRecord): void => {
      if (!this.reports.get(report._id)) this.#madeAt(report)
      this.#reports.open.delete(report._id)
      this.#reports[report.status].put(report)
    },
    delete: (id: string): void => {
      const report = this.reports.get(id)
      if (report) this.#unmade(report)
      this.#reports.open.delete(id)
      this.#reports.resolved.delete(id)
    },
    all: (): ReportRecord[] => [...this.#reports.open.byId.values(), ...this.#reports.resolved.byId.values()],
  }

  listReports(status: ReportStatus, request: PageRequest): Page<ReportRecord> {
    return this.#reports[status].newestFirst(request)
  }

  /** Whether an open report's snapshot of its target holds the string, as a whole value (an image's URL). */
  openReportShows(value: string): boolean {
    const quoted = JSON.stringify(value)
    for (const report of this.#reports.open.byId.values())
      if (JSON.stringify(report.snapshot).includes(quoted)) return true
    return false
  }

  get openCount(): number {
    return this.#reports.open.byId.size
  }

  countReportsSince(reporterId: string, since: string): number {
    return (this.#madeBy.get(reporterId) ?? []).filter((at) => at >= since).length
  }

  #unmade(report: ReportRecord): void {
    const times = this.#madeBy.get(report.reporterId) ?? []
    const at = times.indexOf(report.createdAt)
    if (at >= 0) this.#madeBy.set(report.reporterId, times.toSpliced(at, 1))
  }

  #madeAt(report: ReportRecord): void {
    const times = this.#madeBy.get(report.reporterId) ?? []
    times.push(report.createdAt)
    // Only the last hour's count is ever asked for; a dozen times are plenty to answer it.
    this.#madeBy.set(report.reporterId, times.slice(-20))
  }
}
