import t from 'tap'
t.test('x', async (t) => { t.equal(1, 1) })
