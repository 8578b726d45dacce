import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '@server/db/client.js';
import { keepInOutbox } from './repo.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** `mailId`, when given, names the message (its Message-ID) so a receiver can tell a resend. */
  send(message: MailMessage, mailId?: string): Promise<void>;
  /** Closes the connections it keeps open, if any. */
  close(): void;
}

/**
 * Real SMTP when SMTP_URL is set. Connections are pooled: kept open and reused from one e-mail to
 * the next, so an e-mail pays no new connection, greeting, TLS or sign-in (against the tests'
 * loopback peer it takes a third of the time; more is saved over a network). `?pool=false` in
 * SMTP_URL opens one per e-mail.
 *
 * Every wait on the mail server is bounded by `timeoutMs` (nodemailer's own defaults let a server
 * that greets and goes silent hold a delivery, and the worker running it, for 10 minutes): the
 * connection is dropped, the send fails and its job is retried later, while the next jobs go on.
 */
function smtpMailer(smtpUrl: string, from: string, timeoutMs: number): Mailer {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  for (const wait of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) url.searchParams.set(wait, String(timeoutMs));
  const transport = nodemailer.createTransport(url.toString());
  return {
    async send(m, mailId) {
      const messageId = mailId ? `<${mailId}@${from.replace(/^.*@|>.*$/g, '') || 'localhost'}>` : undefined;
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html, messageId });
    },
    close: () => transport.close(),
  };
}

/**
 * Without SMTP_URL mail lands in the development outbox: stored in the database (so any process
 * can show it at /dev/outbox), so a newcomer can sign up locally. The log says where to read it
 * but never holds a code or a link: logs travel further than the outbox.
 */
function outboxMailer(db: Db, log: Logger, outboxUrl: string): Mailer {
  return {
    async send(m) {
      await keepInOutbox(db, { to: m.to, subject: m.subject, text: m.text, html: m.html });
      log.info({ to: m.to, subject: maskCodes(m.subject) }, `e-mail kept in the development outbox, read it at ${outboxUrl}`);
    },
    close: () => {},
  };
}

/** SMTP_URL's server, or the development outbox without it. */
export const configuredMailer = (
  config: { SMTP_URL?: string | undefined; MAIL_FROM: string; SMTP_TIMEOUT_MS: number; publicUrl: string }, db: Db, log: Logger,
): Mailer =>
  (config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM, config.SMTP_TIMEOUT_MS) : outboxMailer(db, log, `${config.publicUrl}/dev/outbox`));

/** Subjects may name a code ("123456 is your code"): digit runs are masked. */
const maskCodes = (text: string) => text.replace(/\d{4,}/g, '[code]');
