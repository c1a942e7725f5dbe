import { Type, type Static } from '@sinclair/typebox'
import { DateTimeSchema } from './common.js'

/** The job queue as admins see it (DECISIONS §16, GET /api/admin/jobs). */

/** Every kind of job, those without work yet included, so each plugs in with a handler of its own. */
export const JOB_KINDS = [
  'link-card',
  'mail',
  'push',
  'poll-close',
  'scheduled-post',
  'delivery',
  'inbox',
  'media-delete',
] as const
export type JobKind = (typeof JOB_KINDS)[number]

const CountSchema = Type.Integer({ minimum: 0 })
const JobCountsSchema = Type.Object(
  { queued: CountSchema, running: CountSchema, done: CountSchema, failed: CountSchema },
  { additionalProperties: false },
)

export const JobsReplySchema = Type.Object(
  {
    /** Every kind, with how many of its jobs are in each state; done and failed ones for as long as they are kept. */
    kinds: Type.Object(Object.fromEntries(JOB_KINDS.map((kind) => [kind, JobCountsSchema])), {
      additionalProperties: false,
    }),
    /** The latest failures, the latest first. */
    failures: Type.Array(
      Type.Object(
        {
          _id: Type.String(),
          kind: Type.Union(JOB_KINDS.map((kind) => Type.Literal(kind))),
          attempts: CountSchema,
          lastError: Type.String(),
          failedAt: DateTimeSchema,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)
export type JobsReply = Static<typeof JobsReplySchema>
