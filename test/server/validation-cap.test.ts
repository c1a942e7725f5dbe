import t from 'tap'
import type { FastifySchemaValidationError } from 'fastify/types/schema.js'
import { describeAll } from '../../server/plugins/validation.js'
import { buildTestApp } from '../helpers/app.js'

await t.test('however many problems a body has, the reply names a bounded number of them', async (t) => {
  const problems: FastifySchemaValidationError[] = Array.from({ length: 500 }, (_, i) => ({
    keyword: 'type',
    instancePath: `/field${i}`,
    schemaPath: `#/properties/field${i}/type`,
    params: { type: 'string' },
    message: 'must be string',
  }))
  const errors = describeAll(problems, 'body')
  t.equal(errors.length, 11, 'ten problems and a count of the rest')
  t.equal(errors[0], 'field0 must be string', 'the fields are named')
  t.equal(errors[10], 'and 490 more problems')
})

await t.test('a body with hundreds of unknown fields is read as if they were absent', async (t) => {
  const { app } = await buildTestApp(t, { config: { rateLimit: false } })
  const payload: Record<string, string> = { username: 'guest', password: 'guestpassword' }
  for (let i = 0; i < 500; i++) payload[`field${i}`] = 'x'
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload })
  t.equal(res.statusCode, 200)
  t.notOk(res.body.includes('field0'), 'none of them comes back')
})
