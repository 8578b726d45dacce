import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Real SMTP when SMTP_URL is set. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}

/**
 * Without SMTP_URL mail lands in the development outbox: stored in the database (so any process
 * can show it at /dev/outbox) and printed to the console, so a newcomer can sign up locally.
 */
export function outboxMailer(db: Db, log: Logger): Mailer {
  return {
    async send(m) {
      await db.insert(mailOutbox).values(m);
      log.info({ to: m.to, subject: m.subject }, `development outbox:\n${m.text}`);
    },
  };
}
