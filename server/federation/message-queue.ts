import { randomUUID } from 'node:crypto'
import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify'
import { PermanentJobError, type JobHandlers } from '../services/jobs.js'
import type { JobKind, JobPayload, JobStore } from '../store/types.js'

type Listener = (message: unknown) => Promise<void> | void
type Sender = (payload: JobPayload) => Promise<void>

/** Fedify's messages carry their own kind: activities received go to `inbox` jobs, the rest are deliveries. */
const kindOf = (message: unknown): JobKind =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'inbox'
    ? 'inbox'
    : 'delivery'

/**
 * Fedify's MessageQueue over Chirp's job queue (docs/job-queue.md): each message is a job of its own, kept
 * by the store like every other (a row read with SKIP LOCKED on PostgreSQL, a record in the data
 * directory), run once across instances, and retried with the queue's backoff, two days for deliveries.
 * Fedify leaves retries to the queue (nativeRetrial), so a failure is thrown back to the job and counted.
 */
export class ChirpMessageQueue implements MessageQueue {
  readonly nativeRetrial = true
  #listener: Listener | undefined

  constructor(
    private readonly store: Pick<JobStore, 'enqueueJobs'>,
    private readonly now: () => Date,
  ) {}

  /** What sends the activities Chirp's own services queue (a delivery job without a Fedify message). */
  #sender: Sender | undefined

  /**
   * The job queue's handlers of Fedify's two kinds, each handing the message to Fedify's listener; a
   * delivery job of Chirp's services (a follow, an answer to one) goes to the sender.
   */
  readonly jobHandlers: JobHandlers = {
    delivery: (job) => (job.payload.message === undefined ? this.#send(job.payload) : this.#run(job.payload.message)),
    inbox: (job) => this.#run(job.payload.message),
  }

  /** Takes the sender of Chirp's own deliveries: federation/index.ts gives it as federation starts. */
  sendWith(sender: Sender) {
    this.#sender = sender
  }

  async #send(payload: JobPayload) {
    if (!this.#sender) throw new Error('federation is not sending on this instance yet')
    await this.#sender(payload)
  }

  enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    return this.enqueueMany([message], options)
  }

  async enqueueMany(messages: unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const at = this.now()
    const delay = options?.delay ? Math.max(0, options.delay.total('millisecond')) : 0
    const runAt = new Date(at.getTime() + delay).toISOString()
    const jobs = messages.map((message) => ({
      _id: randomUUID(),
      kind: kindOf(message),
      payload: { message: JSON.stringify(message) },
      runAt,
    }))
    await this.store.enqueueJobs(jobs, at.toISOString())
  }

  /** Takes Fedify's listener until `signal` aborts; the job queue's workers call it for each message. */
  listen(handler: Listener, options?: MessageQueueListenOptions): Promise<void> {
    this.#listener = handler
    const signal = options?.signal
    return new Promise((resolve) => {
      if (!signal) return
      const stop = () => {
        if (this.#listener === handler) this.#listener = undefined
        resolve()
      }
      if (signal.aborted) stop()
      else signal.addEventListener('abort', stop, { once: true })
    })
  }

  async #run(payload: unknown) {
    // Thrown, the job is tried again later: an instance whose federation has not started yet hands it back.
    if (!this.#listener) throw new Error('federation is not listening for messages on this instance')
    if (typeof payload !== 'string') throw new PermanentJobError('a federation job without its message')
    await this.#listener(JSON.parse(payload) as unknown)
  }
}
