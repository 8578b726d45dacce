import { CHANNELS, type ChannelId } from '@core/channels.js';
import { isMobileChannel } from '@core/operators.js';
import type { Tx } from '@server/db/client.js';
import { addJobs } from '@server/db/shared-sql/job-rows.js';
import { enqueue } from '../jobs/service.js';
import type { TransferRequestRow } from './repo.js';

/**
 * Queues the payout's start in the transaction that may have cleared its last control (payment
 * received, hold released, approval given): a mobile-money or PayPal payout whose rail is on
 * then leaves by itself (docs/rules/payout-rails.md). The job checks everything again, so queuing it early
 * or twice is harmless.
 */
export async function queueRailPayout(tx: Tx, row: Pick<TransferRequestRow, 'id' | 'destination_provider'>, maxAttempts: number): Promise<void> {
  if (byRail(row)) await enqueue(tx, 'payout_start', { transfer_id: row.id }, maxAttempts, `payout-start:${row.id}`);
}

/** `queueRailPayout` for many transfers at once (a bank statement's payments), in one statement. */
export async function queueRailPayouts(tx: Tx, rows: readonly Pick<TransferRequestRow, 'id' | 'destination_provider'>[], maxAttempts: number): Promise<void> {
  await addJobs(tx, rows.filter(byRail).map((row) => ({ identifier: 'payout_start', payload: { transfer_id: row.id }, max_attempts: maxAttempts, job_key: `payout-start:${row.id}` })));
}

const byRail = (row: Pick<TransferRequestRow, 'destination_provider'>) =>
  isMobileChannel(row.destination_provider) || CHANNELS[row.destination_provider as ChannelId]?.kind === 'paypal';
