import type { OutboxMail } from '../../../core/api/mail.js';
import type { Db } from '../../db/client.js';
import * as repo from './repo.js';

/** The mail that would have been sent, newest first, for the /dev/outbox page. */
export async function readOutbox(db: Db, opts: { to?: string | undefined; limit: number }): Promise<OutboxMail[]> {
  return (await repo.listOutbox(db, opts)).map((m) => ({ ...m, created_at: m.created_at.toISOString() }));
}
