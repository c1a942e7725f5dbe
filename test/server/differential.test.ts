import t, { type Test } from 'tap'
import { isDeepStrictEqual } from 'node:util'
import { normalise, openSides, Random, send, sharedClock, type Answer, type Side } from '../helpers/drift.js'
import { DRIFT_NAMES, pairOf, stepOf, type Step } from '../helpers/drift-operations.js'
import { skipWithoutPostgres } from '../helpers/pg.js'

/**
 * The differential test (DECISIONS §16): long seeded random sequences of requests (every write, pairs
 * of writes at once, pages read across writes, hostile text) sent to an app on the embedded store and
 * one on PostgreSQL alike, every answer compared. Any difference is a bug in one of the stores or in a
 * rule that one path skips. `npm test` runs a few short sequences; `npm run test:drift` many long ones.
 * DRIFT_SEED=<n> runs one seed again, DRIFT_STEPS its length, DRIFT_SEEDS how many seeds.
 */
const skip = await skipWithoutPostgres()
const env = process.env
const long = env.DRIFT_LONG === '1'
const first = Number(env.DRIFT_SEED ?? 1)
const count = env.DRIFT_SEED !== undefined ? 1 : Number(env.DRIFT_SEEDS ?? (long ? 30 : 3))
const steps = Number(env.DRIFT_STEPS ?? (long ? 500 : 80))

const rerun = (seed: number) => `DRIFT_SEED=${seed} DRIFT_STEPS=${steps} npx tap test/server/differential.test.ts`
const shown = (value: unknown) => JSON.stringify(value).slice(0, 1500)

/** Sends `step` to both sides at once; what each made is noted when it succeeded on both. */
async function both(sides: [Side, Side], step: Step): Promise<[Answer, Answer]> {
  const answers = (await Promise.all(sides.map((side) => send(side, step.actor, step.request(side))))) as [
    Answer,
    Answer,
  ]
  if (answers.every((answer) => answer.status < 300))
    sides.forEach((side, i) => step.made?.(side, (answers[i] as Answer).body))
  return answers
}

/** Whether both answered alike; a difference fails the run, saying how to run it again. */
function alike(t: Test, sides: [Side, Side], answers: [Answer, Answer], seed: number, where: string): boolean {
  const [a, b] = answers.map((answer, i) => normalise(sides[i] as Side, answer))
  if (isDeepStrictEqual(a, b)) return true
  t.fail(`${where}: the stores answer differently. Run it again with: ${rerun(seed)}`, {
    embedded: shown(a),
    postgres: shown(b),
  })
  return false
}

async function run(t: Test, seed: number) {
  const clock = sharedClock()
  const sides = await openSides(t, clock)
  for (const [i, username] of DRIFT_NAMES.entries()) {
    const signup: Step = {
      label: `signup ${i}`,
      actor: undefined,
      request: () => ({
        method: 'POST',
        url: '/api/auth/signup',
        payload: {
          username,
          password: 'drift password',
          firstName: 'Dri',
          lastName: `Ft${i}`,
          email: `${username}@example.com`,
        },
      }),
      made: (side, body) => {
        const { encodedToken, createdUser } = body as { encodedToken: string; createdUser: { _id: string } }
        side.tokens.push(encodedToken)
        side.users.push(createdUser._id)
      },
    }
    if (!alike(t, sides, await both(sides, signup), seed, signup.label)) return
  }
  const random = new Random(seed)
  const statuses = new Map<number, number>()
  const count = (answers: [Answer, Answer]) =>
    statuses.set(answers[0].status, (statuses.get(answers[0].status) ?? 0) + 1)
  for (let i = 0; i < steps; i++) {
    clock.tick()
    const [embedded] = sides
    if (random.chance(0.1)) {
      const pair = pairOf(random, embedded.posts.length)
      const [x, y] = await Promise.all(pair.map((step) => both(sides, step)))
      count(x as [Answer, Answer])
      if (!alike(t, sides, x as [Answer, Answer], seed, `step ${i}: ${pair[0].label} beside ${pair[1].label}`)) return
      if (!alike(t, sides, y as [Answer, Answer], seed, `step ${i}: ${pair[1].label} beside ${pair[0].label}`)) return
      continue
    }
    const step = stepOf(random, embedded.posts.length, embedded.comments.length)
    const answers = await both(sides, step)
    count(answers)
    if (!alike(t, sides, answers, seed, `step ${i}: ${step.label}`)) return
  }
  const tally = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${n}× ${status}`)
  t.pass(`${steps} steps answered alike (${tally.join(', ')}); ${sides[0].posts.length} posts made`)
}

for (let seed = first; seed < first + count; seed++) {
  await t.test(`seed ${seed}: ${steps} steps on both stores`, { skip }, (t) => run(t, seed))
}
