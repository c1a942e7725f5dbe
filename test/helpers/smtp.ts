import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import type { TestContext } from './app.js'

export interface ReceivedMail {
  from: string
  to: string[]
  /** The message as sent, headers and body, with quoted-printable lines joined back. */
  text: string
}

export interface LocalSmtp {
  url: string
  mails: ReceivedMail[]
  /** The next mail to arrive after those already taken, within `timeoutMs`. */
  next(timeoutMs?: number): Promise<ReceivedMail>
}

/** Undoes quoted-printable: the encoding a mailer gives a body with lines longer than 76 characters. */
const unquote = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

/** An SMTP server on 127.0.0.1 that keeps what it is sent, without TLS or a login; closed when the test ends. */
export async function startSmtp(t: TestContext): Promise<LocalSmtp> {
  const mails: ReceivedMail[] = []
  let taken = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const envelope = session.envelope
        mails.push({
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((to) => to.address),
          text: unquote(Buffer.concat(chunks).toString('utf8')),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(timeoutMs = 5000) {
      const until = Date.now() + timeoutMs
      while (mails.length <= taken) {
        if (Date.now() > until) throw new Error('no mail arrived')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return mails[taken++] as ReceivedMail
    },
  }
}
