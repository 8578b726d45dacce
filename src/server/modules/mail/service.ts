import type { OutboxMail } from '@core/api/mail.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { type Lang, t } from '@server/i18n.js';
import { HttpError } from '@server/lib/http-error.js';
import * as repo from './repo.js';
import { type AccountMail, accountMail } from './templates.js';

/** Sends an account e-mail in `lang`; a mail server that refuses it is a 503 the user can retry. */
export async function sendAccountMail(ctx: AppContext, lang: Lang, to: string, name: string | null, mail: AccountMail): Promise<void> {
  const message = accountMail(lang, to, name, mail, { app: t(lang, 'common.app.name'), support: ctx.config.SUPPORT_EMAIL });
  try {
    await ctx.mailer.send(message);
  } catch (err) {
    ctx.log.error({ err, to, kind: mail.kind }, 'account e-mail could not be sent');
    throw new HttpError(503, 'auth.errors.mailFailed');
  }
}

/** The mail that would have been sent, newest first, for the /dev/outbox page. */
export async function readOutbox(db: Db, opts: { to?: string | undefined; limit: number }): Promise<OutboxMail[]> {
  return (await repo.listOutbox(db, opts)).map((m) => ({ ...m, created_at: m.created_at.toISOString() }));
}
