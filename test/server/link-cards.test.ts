import t from 'tap'
import { cardLinkOf, createLinkCards } from '../../server/services/link-cards.js'
import { LinkFetchError, type FetchRequest, type LinkFetcher } from '../../server/services/link-fetch.js'
import type { Store } from '../../server/store/types.js'

/**
 * The link-card queue with a fetcher whose answers the test gives by hand: how many fetches run at once,
 * that one link is fetched once (a failure too, for a while), and that shutdown stops them. Every fetch
 * here fails, so no card is ever stored and the store is never asked.
 */

interface Call {
  link: string
  request: FetchRequest
  fail: () => void
}

function fakeFetcher() {
  const calls: Call[] = []
  const fetcher: LinkFetcher = {
    fetch: (link, request) =>
      new Promise((_resolve, reject) => {
        const fail = () => reject(new LinkFetchError('status', 'the server answered 404'))
        if (request.signal?.aborted) fail()
        request.signal?.addEventListener('abort', fail)
        calls.push({ link, request, fail })
      }),
  }
  return { calls, fetcher }
}

const noStore = {} as Store
const logged: string[] = []
const cardsWith = (fetcher: LinkFetcher) =>
  createLinkCards({
    store: noStore,
    now: () => new Date(),
    fetcher,
    saveImage: async () => '',
    log: (m) => logged.push(m),
  })
/** Lets the promise chains the queue started run to where they wait. */
const settle = () => new Promise((resolve) => setImmediate(resolve))

await t.test("a post's card link: its first https link, as written", async (t) => {
  t.strictSame(cardLinkOf('see http://a.example/x then https://b.example/y.'), {
    text: 'https://b.example/y',
    href: 'https://b.example/y',
  })
  t.strictSame(cardLinkOf('(https://B.example/a_(b))!'), {
    text: 'https://B.example/a_(b)',
    href: 'https://b.example/a_(b)',
  })
  t.equal(cardLinkOf('no link, only http://a.example'), undefined)
})

await t.test('at most 4 fetches run at once; the next starts when one ends', async (t) => {
  const { calls, fetcher } = fakeFetcher()
  const cards = cardsWith(fetcher)
  for (let i = 0; i < 6; i++) cards.schedule(`post-${i}`, `link https://site${i}.example/`)
  await settle()
  t.equal(calls.length, 4, '4 running, 2 waiting')
  calls[0]?.fail()
  await settle()
  t.equal(calls.length, 5, 'one ended, the fifth started')
  t.equal(calls[4]?.link, 'https://site4.example/', 'in the order they were posted')
  await cards.close()
})

await t.test('one link is fetched once, and a failure is remembered', async (t) => {
  const { calls, fetcher } = fakeFetcher()
  const cards = cardsWith(fetcher)
  cards.schedule('a', 'https://same.example/page')
  cards.schedule('b', 'again https://same.example/page')
  await settle()
  t.equal(calls.length, 1, 'two posts, one fetch')
  calls[0]?.fail()
  await settle()
  cards.schedule('c', 'later https://same.example/page')
  await settle()
  t.equal(calls.length, 1, 'the failure is not fetched again at once')
  t.ok(
    logged.some((line) => line.includes('status, the server answered 404')),
    'the refusal is logged with its reason',
  )
  await cards.close()
})

await t.test('an edit that keeps the link fetches nothing; one to another link fetches it', async (t) => {
  const { calls, fetcher } = fakeFetcher()
  const cards = cardsWith(fetcher)
  cards.schedule('a', 'edited https://kept.example/', 'before https://kept.example/')
  await settle()
  t.equal(calls.length, 0)
  cards.schedule('a', 'edited https://new.example/', 'before https://kept.example/')
  await settle()
  t.strictSame(
    calls.map((call) => call.link),
    ['https://new.example/'],
  )
  await cards.close()
})

await t.test('close stops every fetch and waits for them', async (t) => {
  const { calls, fetcher } = fakeFetcher()
  const cards = cardsWith(fetcher)
  cards.schedule('a', 'https://one.example/')
  cards.schedule('b', 'https://two.example/')
  await settle()
  await cards.close()
  t.ok(
    calls.every((call) => call.request.signal?.aborted),
    'each fetch was told to stop',
  )
  cards.schedule('c', 'https://three.example/')
  await settle()
  t.equal(calls.length, 2, 'nothing starts after close')
})
