/**
 * The job queue (DECISIONS §16): one row a job. Workers of every instance claim due rows with
 * `FOR UPDATE SKIP LOCKED`, so two never take one job; a running row carries its claim and a lease after
 * which another worker may take it. `jobs_due` finds what is due, `jobs_leases` runs whose worker died,
 * `jobs_finished` what pruning forgets. Polls not yet noticed closed get their `poll-close` job here, with
 * the post's id as the job's, as services/polls.ts gives new polls theirs.
 */
export const version = 18
export const name = 'jobs'

export const sql = `
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  run_at timestamptz NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  claim uuid,
  lease_until timestamptz,
  last_error text,
  finished_at timestamptz
);
CREATE INDEX jobs_due ON jobs (run_at, id) WHERE state = 'queued';
CREATE INDEX jobs_leases ON jobs (lease_until) WHERE state = 'running';
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE state IN ('done', 'failed');
INSERT INTO jobs (id, kind, payload, run_at, created_at)
  SELECT id, 'poll-close', jsonb_build_object('postId', id::text), (poll->>'closesAt')::timestamptz, now()
  FROM posts WHERE poll IS NOT NULL AND NOT (poll ? 'closeNoticed');
`
