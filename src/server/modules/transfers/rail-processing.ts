import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { notifyStatusChanges } from './notifications.js';
import { writeSystemStatuses, type TransferRequestRow } from './repo.js';

/**
 * `markManyRailProcessing` without its e-mails (a bank file's 10,000 transfers): the moves only,
 * set-wise; the caller has `tellProcessing` queue the e-mails once the moves are committed.
 */
export async function moveManyToProcessing(tx: Tx, rows: readonly TransferRequestRow[], note: string | null): Promise<void> {
  await writeSystemStatuses(tx, rows.filter((r) => r.status === 'pending'), 'processing', note);
}

/** The senders' e-mails about transfers moved to processing by the system (`moveManyToProcessing`), in one statement. */
export function tellProcessing(ctx: Pick<AppContext, 'config'>, tx: Tx, transferIds: readonly string[]): Promise<void> {
  return notifyStatusChanges(ctx, tx, transferIds.map((id) => ({ id, status: 'processing' as const })), null);
}
