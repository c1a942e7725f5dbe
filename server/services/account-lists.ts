import { MSG, badRequest } from '../errors.js'

/** Longer than any line of Mastodon's lists (an address and three short columns); past it the file is no list. */
const MAX_LINE = 1024

/**
 * The lines of a text, read as it arrives and never held whole: each line at most MAX_LINE characters
 * (a 400 past it), so memory stays bounded however large the file.
 */
export async function* linesOf(source: AsyncIterable<Buffer | string> | Iterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let rest = ''
  for await (const chunk of source) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    const lines = rest.split(/\r?\n/)
    rest = lines.pop() ?? ''
    for (const line of [...lines, rest]) if (line.length > MAX_LINE) throw badRequest(MSG.importInvalidFile)
    yield* lines
  }
  rest += decoder.decode()
  if (rest.length > MAX_LINE) throw badRequest(MSG.importInvalidFile)
  if (rest !== '') yield rest
}

/** What one of Mastodon's lists names: local usernames, and how many addresses of other servers it skipped. */
export interface ListAddresses {
  names: string[]
  skipped: number
}

/**
 * The usernames of Mastodon's list (its first column; the header line optional): `name` or
 * `name@<publicHost>` is local, another host is skipped. Reading stops at the entry past `max`, which
 * refuses the list (400), so a huge list costs no more than its first `max` lines.
 */
export async function listAddresses(
  lines: AsyncIterable<string> | Iterable<string>,
  publicHost: string,
  max: number,
): Promise<ListAddresses> {
  const found: ListAddresses = { names: [], skipped: 0 }
  for await (const line of lines) {
    const address = (line.split(',')[0] ?? '').trim().replace(/^@/, '')
    if (address === '' || address.toLowerCase() === 'account address') continue
    if (found.names.length + found.skipped >= max) throw badRequest(MSG.importTooManyEntries)
    const [name = '', host] = address.split('@')
    if (host !== undefined && host.toLowerCase() !== publicHost) found.skipped++
    else found.names.push(name)
  }
  return found
}
