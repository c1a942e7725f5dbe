import nodemailer from 'nodemailer'

interface Mail {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  send(mail: Mail): Promise<void>
  close(): void
}

/** Mail through the SMTP server of SMTP_URL (nodemailer reads the URL's host, port, TLS and login), from SMTP_FROM. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url)
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail })
    },
    close: () => transport.close(),
  }
}
