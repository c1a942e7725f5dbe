import nodemailer from 'nodemailer'

interface Mail {
  to: string
  subject: string
  text: string
  /** `<id@host>`: the same for every send of one mail, so a repeat after a crash is known for what it is. */
  messageId: string
  /** Headers of its own: a mail about notifications carries how to stop them (RFC 8058). */
  headers?: Record<string, string>
}

export interface Mailer {
  send(mail: Mail): Promise<void>
  close(): void
}

/** Mail through the SMTP server of SMTP_URL (nodemailer reads the URL's host, port, TLS and login), from SMTP_FROM. */
export function smtpMailer(url: string, from: string): Mailer {
  // Deadlines well inside a job's lease (services/jobs.ts), so a stuck server cannot outlast the run.
  // What the URL says wins over these.
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000,
  })
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail })
    },
    close: () => transport.close(),
  }
}
