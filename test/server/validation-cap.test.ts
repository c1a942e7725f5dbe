import t from 'tap'
import { buildTestApp } from '../helpers/app.js'

t.test('a body with hundreds of unknown fields gets a short, bounded list of errors', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: false } })
  const payload: Record<string, string> = {}
  for (let i = 0; i < 500; i++) payload[`field${i}`] = 'x'
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload })
  t.equal(res.statusCode, 400)
  const { errors } = res.json() as { errors: string[] }
  t.equal(errors.length, 11, 'ten problems and a count of the rest')
  t.ok(errors.includes("unknown field 'field0'"), 'the fields are named')
  t.match(errors[10], /^and \d+ more problems$/)
})
