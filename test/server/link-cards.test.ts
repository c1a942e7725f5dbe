import t from 'tap'
import { cardLinkOf, createLinkCards } from '../../server/services/link-cards.js'
import { LinkFetchError, type FetchRequest, type LinkFetcher } from '../../server/services/link-fetch.js'
import type { Store } from '../../server/store/types.js'

/**
 * Link-card jobs with a fetcher whose answers the test gives by hand: which posts get a job, that one link
 * is fetched once (a page that cannot be shown too, for a while), that a failure on the way is left to the
 * queue's retries, and that shutdown stops a fetch. Every fetch here fails, so no card is ever stored and
 * the store is never asked.
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
    hasImage: async () => true,
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

/** A run of a job of the post with `content`, as the queue gives one, and whether it ended the job itself. */
async function runFor(
  cards: ReturnType<typeof cardsWith>,
  postId: string,
  content: string,
  signal = new AbortController().signal,
) {
  const job = cards.jobFor(postId, content)
  if (!job) throw new Error('no job')
  const claimed = { _id: job._id, kind: job.kind, payload: job.payload, attempts: 1, startedAt: job.runAt, claim: 'c' }
  return cards.run(claimed, { signal, complete: async () => {} })
}

await t.test('a post gets a link-card job for its first https link; an edit only when the link changed', async (t) => {
  const cards = cardsWith(fakeFetcher().fetcher)
  t.match(cards.jobFor('a', 'see https://x.example/p'), {
    kind: 'link-card',
    payload: { postId: 'a', link: 'https://x.example/p', href: 'https://x.example/p' },
  })
  t.equal(cards.jobFor('a', 'no link here'), undefined, 'none without a link')
  t.equal(cards.jobFor('a', 'edited https://kept.example/', 'before https://kept.example/'), undefined, 'same link')
  t.match(cards.jobFor('a', 'edited https://new.example/', 'before https://kept.example/'), {
    payload: { link: 'https://new.example/' },
  })
})

await t.test('one link is fetched once, and a page that cannot be shown is remembered', async (t) => {
  const { calls, fetcher } = fakeFetcher()
  const cards = cardsWith(fetcher)
  const runs = [runFor(cards, 'a', 'https://same.example/page'), runFor(cards, 'b', 'again https://same.example/page')]
  await settle()
  t.equal(calls.length, 1, 'two posts, one fetch')
  calls[0]?.fail()
  await Promise.all(runs)
  await runFor(cards, 'c', 'later https://same.example/page')
  t.equal(calls.length, 1, 'the refusal is not fetched again at once, and the runs end without a card')
  t.ok(
    logged.some((line) => line.includes('status, the server answered 404')),
    'the refusal is logged with its reason',
  )
})

await t.test(
  'a fetch that failed on the way fails the run, for the queue to try again, and is not remembered',
  async (t) => {
    let fetches = 0
    const cards = cardsWith({
      fetch: async () => {
        fetches++
        throw new LinkFetchError('timeout', 'no answer within 5 s')
      },
    })
    await t.rejects(runFor(cards, 'a', 'https://slow.example/'), { message: 'no answer within 5 s' })
    await t.rejects(runFor(cards, 'a', 'https://slow.example/'), { message: 'no answer within 5 s' })
    t.equal(fetches, 2, 'each try fetches')
  },
)

await t.test('a run told to stop stops its fetch and is not remembered', async (t) => {
  const { calls, fetcher } = fakeFetcher()
  const cards = cardsWith(fetcher)
  const stop = new AbortController()
  const run = runFor(cards, 'a', 'https://one.example/', stop.signal)
  await settle()
  stop.abort()
  await t.rejects(run)
  t.ok(calls[0]?.request.signal?.aborted, 'the fetch was told to stop')
  const again = runFor(cards, 'a', 'https://one.example/')
  await settle()
  t.equal(calls.length, 2, 'the next run fetches afresh')
  calls[1]?.fail()
  await again
})
