import './dom.js'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import t, { type Test } from 'tap'
import * as MSG from '../../common/messages.js'
import { plainServerMessage } from '../../client/api/error-text.js'
import { App } from '../../client/app.js'
import { readToken } from '../../client/lib/storage.js'
import { expectedCode } from '../helpers/error-codes.js'
import { fail, makeUser, ok, renderAt, resetAll, signInAs, stubApi, until } from './helpers.js'

/**
 * Settings' Export and Import (DECISIONS §9): the download shows the bytes received as the zip streams in,
 * the upload how much of the file is sent, then that the server is importing, then the counts in words.
 */
t.beforeEach(() => resetAll())
t.afterEach(() => {
  cleanup()
  resetAll()
})

const me = makeUser({ username: 'ada' })
const onSettings = {
  'GET /api/users/suggestions': () => ok({ users: [] }),
  'GET /api/tags/trending': () => ok({ tags: [] }),
  'GET /api/users/ada': () => ok({ user: me }),
  'GET /api/account/2fa': () => ok({ enabled: false }),
  'GET /api/users/blocks': () => ok({ users: [], nextCursor: null }),
  'GET /api/users/mutes': () => ok({ users: [], nextCursor: null }),
}

/** Object URLs and downloads, which jsdom lacks: records the blobs handed to the browser. */
function stubDownloads(t: Test) {
  const blobs: Blob[] = []
  const names: string[] = []
  const urls = Object.getOwnPropertyDescriptors(URL)
  const anchor = Object.getOwnPropertyDescriptor(HTMLAnchorElement.prototype, 'click')
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      blobs.push(blob)
      return 'blob:archive'
    },
    revokeObjectURL: () => {},
  })
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    names.push(this.download)
  }
  t.teardown(() => {
    Object.defineProperties(URL, urls)
    if (anchor) Object.defineProperty(HTMLAnchorElement.prototype, 'click', anchor)
    else delete (HTMLAnchorElement.prototype as { click?: unknown }).click
  })
  return { blobs, names }
}

await t.test('Export shows the bytes received while the zip streams in, then downloads it', async (t) => {
  signInAs(me)
  const downloads = stubDownloads(t)
  const api = stubApi(onSettings)
  t.teardown(api.restore)
  // The archive's body, fed by the test a chunk at a time.
  let feed: ReadableStreamDefaultController<Uint8Array> | undefined
  let auth: string | null = null
  const stubbed = globalThis.fetch
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.endsWith('/api/account/export')) return stubbed(input, init)
    auth = new Headers(init?.headers).get('authorization')
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (feed = controller) })
    return new Response(body, { status: 200, headers: { 'content-type': 'application/zip' } })
  }) as typeof fetch
  t.teardown(() => void (globalThis.fetch = stubbed))

  renderAt('/settings', <App />)
  await screen.findByRole('heading', { name: 'Export' })
  fireEvent.click(screen.getByRole('button', { name: 'Download your data' }))
  await until(() => feed !== undefined)
  t.equal(auth, `Bearer ${readToken()}`, 'the call carries the token')
  act(() => feed?.enqueue(new Uint8Array(1_200_000)))
  t.ok(await screen.findByText('Downloading… 1.2 MB'), 'the bytes received so far')
  const bar = screen.getByRole('progressbar', { name: 'Download progress' })
  t.equal(bar.getAttribute('max'), null, 'no max: the size is not known ahead')
  t.equal(downloads.names.length, 0, 'nothing handed over before the end')
  act(() => feed?.enqueue(new Uint8Array(300_000)))
  t.ok(await screen.findByText('Downloading… 1.5 MB'))
  act(() => feed?.close())
  await until(() => downloads.names.length === 1)
  t.strictSame(downloads.names, ['chirp-ada.zip'])
  t.equal(downloads.blobs[0]?.size, 1_500_000, 'the whole zip is downloaded')
  await until(() => screen.queryByRole('progressbar', { name: 'Download progress' }) === null)
})

await t.test('a failed export shows the server message in plain words, and hands over nothing', async (t) => {
  signInAs(me)
  const downloads = stubDownloads(t)
  const api = stubApi({ ...onSettings, 'GET /api/account/export': () => fail(500, MSG.internal) })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  await screen.findByRole('heading', { name: 'Export' })
  fireEvent.click(screen.getByRole('button', { name: 'Download your data' }))
  t.ok(await screen.findByText(plainServerMessage(MSG.internal, 500, expectedCode(MSG.internal))))
  t.equal(downloads.names.length, 0)
  t.equal(screen.queryByRole('progressbar', { name: 'Download progress' }), null, 'no progress left showing')
})

await t.test('a second export within the hour says so', async (t) => {
  signInAs(me)
  const downloads = stubDownloads(t).names
  let exports = 0
  const api = stubApi({
    ...onSettings,
    'GET /api/account/export': () => (++exports === 1 ? ok({}) : fail(429, MSG.tooManyRequests)),
  })
  t.teardown(api.restore)
  renderAt('/settings', <App />)
  await screen.findByRole('heading', { name: 'Export' })
  fireEvent.click(screen.getByRole('button', { name: 'Download your data' }))
  await until(() => downloads.length === 1)
  t.strictSame(downloads, ['chirp-ada.zip'])
  await until(() => !(screen.getByRole('button', { name: 'Download your data' }) as HTMLButtonElement).disabled)
  fireEvent.click(screen.getByRole('button', { name: 'Download your data' }))
  t.ok(await screen.findByText('You can download your data once an hour. Try again later.'))
  t.equal(downloads.length, 1, 'nothing more downloaded')
})

/** A stand-in for XMLHttpRequest: records each request, and the test plays the upload and the answer. */
class FakeXhr {
  static sent: FakeXhr[] = []
  upload: { onprogress: ((event: ProgressEvent) => void) | null; onload: (() => void) | null } = {
    onprogress: null,
    onload: null,
  }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  status = 0
  responseText = ''
  method = ''
  url = ''
  headers: Record<string, string> = {}
  body: unknown
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n'
  }
  send(body: unknown) {
    this.body = body
    FakeXhr.sent.push(this)
  }
  /** The server's answer. */
  answer(status: number, body: unknown) {
    this.status = status
    this.responseText = JSON.stringify(body)
    this.onload?.()
  }
}

/** Signed in on Settings' calls, with uploads going to FakeXhr. */
function onImport(t: Test) {
  signInAs(me)
  const api = stubApi(onSettings)
  t.teardown(api.restore)
  FakeXhr.sent = []
  const original = globalThis.XMLHttpRequest
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest
  t.teardown(() => void (globalThis.XMLHttpRequest = original))
}

async function pickAndImport(name: string) {
  renderAt('/settings', <App />)
  await screen.findByRole('heading', { name: 'Import' })
  const button = screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement
  const file = new File(['Account address\nbea\n'], name, { type: 'text/csv' })
  fireEvent.change(screen.getByLabelText('File to import'), { target: { files: [file] } })
  fireEvent.click(button)
  await until(() => FakeXhr.sent.length === 1)
  return FakeXhr.sent[0] as FakeXhr
}

await t.test('Import shows the upload going, then Importing…, then the counts in words', async (t) => {
  onImport(t)
  t.ok((screen.queryByRole('button', { name: 'Import' }) as HTMLButtonElement | null)?.disabled ?? true)
  const xhr = await pickAndImport('following_accounts.csv')
  t.equal(xhr.method, 'POST')
  t.equal(xhr.url, '/api/account/import')
  t.equal(xhr.headers.authorization, `Bearer ${readToken()}`, 'the upload carries the token')
  t.equal(((xhr.body as FormData).get('file') as File).name, 'following_accounts.csv', 'as multipart field file')
  t.ok(await screen.findByText('Uploading…'), 'uploading before any progress is known')

  act(() => xhr.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 } as ProgressEvent))
  t.ok(await screen.findByText('Uploading… 25%'))
  const bar = screen.getByRole('progressbar', { name: 'Upload progress' })
  t.equal(bar.getAttribute('value'), '50')
  t.equal(bar.getAttribute('max'), '200')
  t.ok((screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled, 'one import at a time')

  act(() => xhr.upload.onload?.())
  t.ok(await screen.findByText('Importing…'), 'all sent: the server is importing')
  t.equal(screen.queryByRole('progressbar', { name: 'Upload progress' }), null)

  act(() =>
    xhr.answer(200, {
      imported: { posts: 3, following: 2, blocks: 1, mutes: 0, bookmarks: 4 },
      skipped: { posts: 0, following: 5, blocks: 0, mutes: 0, bookmarks: 1 },
    }),
  )
  t.ok(
    await screen.findByText('Imported 3 posts, 2 follows, 1 block and 4 bookmarks. Skipped 5 follows and 1 bookmark.'),
  )
  t.equal(screen.queryByText('Importing…'), null)
  const table = screen.getByRole('table', { name: 'What was imported' })
  const follows = [...table.querySelectorAll('tr')].find((row) => row.textContent?.startsWith('Follows'))
  t.equal(follows?.textContent, 'Follows25')
})

await t.test('Import with nothing skipped says so', async (t) => {
  onImport(t)
  const xhr = await pickAndImport('muted_accounts.csv')
  act(() =>
    xhr.answer(200, {
      imported: { posts: 0, following: 0, blocks: 0, mutes: 1, bookmarks: 0 },
      skipped: { posts: 0, following: 0, blocks: 0, mutes: 0, bookmarks: 0 },
    }),
  )
  t.ok(await screen.findByText('Imported 1 mute. Skipped nothing.'))
})

await t.test('a refused import shows the server message in plain words, as every call does', async (t) => {
  onImport(t)
  const xhr = await pickAndImport('blocked_accounts.csv')
  act(() => xhr.answer(413, { errors: [MSG.importTooLarge], code: expectedCode(MSG.importTooLarge) }))
  const shown = plainServerMessage(MSG.importTooLarge, 413, expectedCode(MSG.importTooLarge))
  t.ok(await screen.findByText(shown))
  t.equal(screen.queryByText('Importing…'), null)
  t.equal(screen.queryByRole('table', { name: 'What was imported' }), null, 'no counts')
  await until(() => !(screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled)
})

await t.test('an upload that never reaches the server says so', async (t) => {
  onImport(t)
  const xhr = await pickAndImport('blocked_accounts.csv')
  act(() => xhr.onerror?.())
  t.ok(await screen.findByText("Can't reach Chirp. Check your connection and try again."))
})
