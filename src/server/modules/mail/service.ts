import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { OutboxMail } from '@core/api/mail.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { type Lang, t } from '@server/i18n.js';
import { enqueue } from '../jobs/service.js';
import type { Mailer, MailMessage } from './mailer.js';
import * as repo from './repo.js';
import { type AccountMail, accountMail } from './templates.js';

export type { Mailer, MailMessage } from './mailer.js';
export { outboxReadable } from './outbox-access.js';

// E-mails are durable work (docs/decisions/014-durable-jobs.md): queued, in the transaction of
// the change they report when there is one, and sent by the worker. No request waits on SMTP.

/** Queues an e-mail; with a transaction, it is sent only if that transaction commits. */
export function queueMail(ctx: Pick<AppContext, 'config'>, db: Db | Tx, message: MailMessage): Promise<void> {
  return enqueue(db, 'mail', { mail_id: randomUUID(), message }, ctx.config.JOB_MAX_ATTEMPTS);
}

/** Queues an account e-mail in `lang`. */
export async function sendAccountMail(ctx: AppContext, lang: Lang, to: string, name: string | null, mail: AccountMail): Promise<void> {
  const message = accountMail(lang, to, name, mail, { app: t(lang, 'common.app.name'), support: ctx.config.SUPPORT_EMAIL });
  try {
    await queueMail(ctx, ctx.db, message);
  } catch (err) {
    ctx.log.error({ err, to, kind: mail.kind }, 'account e-mail could not be queued');
    throw err;
  }
}

const MailJobSchema = z.object({
  mail_id: z.uuid(),
  message: z.object({ to: z.string(), subject: z.string(), text: z.string(), html: z.string() }),
});

/**
 * The mail job: sends once. The delivery mark is written right after SMTP accepts and read
 * before sending, so a job run again (a retry after the mark, a second worker) sends nothing.
 * Only a crash between SMTP's acceptance and the mark can send twice; the Message-ID is the same
 * both times, so the receiver can tell.
 */
export async function deliverMail(deps: { db: Db; mailer: Mailer; log: Logger }, payload: unknown, abort?: AbortSignal): Promise<void> {
  const job = MailJobSchema.parse(payload);
  if (await repo.wasDelivered(deps.db, job.mail_id)) return;
  const sending = deps.mailer.send(job.message, job.mail_id);
  await (abort ? untilAborted(sending, abort) : sending);
  await repo.markDelivered(deps.db, job.mail_id);
}

/** A send that hangs (an SMTP server that never answers) fails when the worker stops, and is retried. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('worker stopping'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('worker stopped before the mail server answered'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The mail that would have been sent, newest first, for the /dev/outbox page. */
export async function readOutbox(db: Db, opts: { to?: string | undefined; limit: number }): Promise<OutboxMail[]> {
  return (await repo.listOutbox(db, opts)).map((m) => ({ ...m, created_at: m.created_at.toISOString() }));
}
