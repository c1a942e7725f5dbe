import { randomUUID } from 'node:crypto'
import type { NewJob } from '../../server/store/types.js'
import { MALFORMED, UNKNOWN, type ContractCase, type Fixture } from './store-contract.js'

/**
 * The job queue's operations, in the order a queue uses them: enqueued in a write and beside one, claimed
 * oldest first and only when due, ended under their claim only, taken again when a lease runs out,
 * given back, failed, listed, counted and pruned.
 */
export function jobRows(f: Fixture): ContractCase[] {
  const { at } = f
  const [j1, j2, j3, j4, j5] = Array.from({ length: 5 }, () => randomUUID()) as [string, string, string, string, string]
  const [c1, c2, c3, c4, c5, c6] = Array.from({ length: 6 }, () => randomUUID()) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ]
  const job = (_id: string, kind: NewJob['kind'], minute: number): NewJob => ({
    _id: _id as string,
    kind,
    payload: { postId: f.p[0] as string, n: minute, ok: true },
    runAt: at(minute),
  })
  const claim = (claimId: string, kinds: NewJob['kind'][], limit: number, minute: number, leaseMinute = minute + 30) =>
    ({ kinds, limit, at: at(minute), claim: claimId, leaseUntil: at(leaseMinute) }) as const
  const heard: string[] = []
  return [
    {
      op: 'enqueueJob',
      name: 'jobs enqueued in a write',
      write: async (tx) => {
        await tx.enqueueJob(job(j1 as string, 'link-card', 10), at(1))
        await tx.enqueueJob(job(j2 as string, 'mail', 20), at(1))
        await tx.enqueueJob(job(j3 as string, 'link-card', 100), at(1))
      },
    },
    {
      op: 'enqueueJobs',
      name: 'a job beside any write',
      run: (s) => s.enqueueJobs([job(j4 as string, 'poll-close', 5)], at(1)),
    },
    { op: 'enqueueJobs', name: 'none', run: (s) => s.enqueueJobs([], at(1)) },
    { op: 'countJobs', name: 'all queued', run: (s) => s.countJobs() },
    {
      op: 'claimJobs',
      name: 'the oldest due first',
      run: (s) => s.claimJobs(claim(c1, ['link-card', 'poll-close'], 1, 50)),
    },
    { op: 'claimJobs', name: 'only due ones of its kinds', run: (s) => s.claimJobs(claim(c2, ['link-card'], 5, 50)) },
    { op: 'claimJobs', name: 'no kinds', run: (s) => s.claimJobs(claim(c2, [], 5, 50)) },
    { op: 'completeJob', name: 'under another claim', write: (tx) => tx.completeJob(j1 as string, c1, at(51)) },
    { op: 'completeJob', name: 'under its claim', write: (tx) => tx.completeJob(j1 as string, c2, at(51)) },
    { op: 'completeJob', name: 'once done', write: (tx) => tx.completeJob(j1 as string, c2, at(52)) },
    {
      op: 'completeJob',
      name: 'unknown and malformed',
      write: async (tx) => [await tx.completeJob(UNKNOWN, c2, at(52)), await tx.completeJob(MALFORMED, c2, at(52))],
    },
    {
      op: 'settleJob',
      name: 'under another claim',
      run: (s) => s.settleJob(j4 as string, c2, { state: 'done' }, at(55)),
    },
    {
      op: 'settleJob',
      name: 'queued again after an error',
      run: (s) => s.settleJob(j4 as string, c1, { state: 'queued', runAt: at(60), error: 'first' }, at(55)),
    },
    { op: 'claimJobs', name: 'a retry before its time', run: (s) => s.claimJobs(claim(c3, ['poll-close'], 5, 59)) },
    { op: 'claimJobs', name: 'a retry at its time', run: (s) => s.claimJobs(claim(c3, ['poll-close'], 5, 61)) },
    {
      op: 'settleJob',
      name: 'failed for good',
      run: (s) => s.settleJob(j4 as string, c3, { state: 'failed', error: 'second' }, at(62)),
    },
    { op: 'claimJobs', name: 'with a lease', run: (s) => s.claimJobs(claim(c4, ['mail'], 5, 63, 70)) },
    {
      op: 'extendJobLease',
      name: 'by the run that holds it',
      run: (s) => s.extendJobLease(j2 as string, c4, at(80)),
    },
    {
      op: 'extendJobLease',
      name: 'under another claim, unknown or malformed',
      run: async (s) => [
        await s.extendJobLease(j2 as string, c5, at(200)),
        await s.extendJobLease(UNKNOWN, c4, at(200)),
        await s.extendJobLease(MALFORMED, c4, at(200)),
        await s.extendJobLease(j2 as string, MALFORMED, at(200)),
      ],
    },
    { op: 'claimJobs', name: 'a lease extended, still running', run: (s) => s.claimJobs(claim(c5, ['mail'], 5, 75)) },
    { op: 'claimJobs', name: 'a lease still running', run: (s) => s.claimJobs(claim(c5, ['mail'], 5, 79)) },
    { op: 'claimJobs', name: 'a lease run out', run: (s) => s.claimJobs(claim(c5, ['mail'], 5, 81)) },
    {
      op: 'settleJob',
      name: 'by the run that lost its lease',
      run: (s) => s.settleJob(j2 as string, c4, { state: 'done' }, at(82)),
    },
    {
      op: 'settleJob',
      name: 'given back unrun',
      run: (s) => s.settleJob(j2 as string, c5, { state: 'queued', runAt: at(82), error: null }, at(82)),
    },
    {
      op: 'settleJob',
      name: 'unknown and malformed',
      run: async (s) => [
        await s.settleJob(UNKNOWN, c5, { state: 'done' }, at(83)),
        await s.settleJob(MALFORMED, c5, { state: 'done' }, at(83)),
        await s.settleJob(j2 as string, MALFORMED, { state: 'done' }, at(83)),
      ],
    },
    { op: 'claimJobs', name: 'given back, taken again', run: (s) => s.claimJobs(claim(c6, ['mail'], 5, 84)) },
    { op: 'listFailedJobs', name: 'the failures', run: (s) => s.listFailedJobs(10) },
    { op: 'listFailedJobs', name: 'none asked', run: (s) => s.listFailedJobs(0) },
    { op: 'countJobs', name: 'in every state', run: (s) => s.countJobs() },
    { op: 'pruneJobs', name: 'done ones before a time', run: (s) => s.pruneJobs(at(100), at(0)) },
    { op: 'pruneJobs', name: 'failed ones too', run: (s) => s.pruneJobs(at(100), at(100)) },
    { op: 'countJobs', name: 'after pruning', run: (s) => s.countJobs() },
    {
      op: 'watchJobs',
      name: 'told of each job enqueued',
      run: async (s) => {
        heard.length = 0
        await s.watchJobs((runAt) => heard.push(runAt))
        await s.enqueueJobs([job(j5 as string, 'push', 7)], at(90))
        await s.transaction((tx) => tx.enqueueJob(job(randomUUID(), 'inbox', 8), at(90)))
        return [...heard]
      },
    },
  ]
}
