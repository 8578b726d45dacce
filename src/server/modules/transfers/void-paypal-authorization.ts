import { z } from 'zod';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { enqueue } from '../jobs/service.js';
import { PayPalError, voidAuthorization } from './paypal-client.js';
import type { MoneyContext } from './money-step.js';
import { lockRequest, writeMoney, type TransferRequestRow } from './repo.js';

// A closed transfer's PayPal authorization is released by a queued job
// (docs/rules/money-states.md#paypal). The job key is also PayPal's request id, so a retry
// voids once: one void per transfer at most.
const voidKey = (transferId: string) => `paypal_void:${transferId}`;

const VoidJobSchema = z.object({ transfer_id: z.uuid(), authorization_id: z.string().min(1), request_id: z.string().min(1) });

/**
 * Queues the release of the authorization of a transfer just closed (or closed before its
 * approval came back), in the caller's transaction. The payment stays `authorized` until PayPal
 * confirms the void: it can no longer be captured (a closed transfer never moves to processing).
 */
export async function queueVoid(ctx: Pick<AppContext, 'config'>, tx: Tx, row: TransferRequestRow): Promise<void> {
  if (row.payment_status !== 'authorized' || !row.provider_authorization_id) return;
  const key = voidKey(row.id);
  const payload: z.infer<typeof VoidJobSchema> = { transfer_id: row.id, authorization_id: row.provider_authorization_id, request_id: key };
  await enqueue(tx, 'paypal_void', payload, ctx.config.JOB_MAX_ATTEMPTS, key);
}

/** The void job: PayPal releases the money (once, by its request id), then the payment is `voided`. */
export async function runVoidJob(ctx: MoneyContext, payload: unknown): Promise<void> {
  const job = VoidJobSchema.parse(payload);
  try {
    await voidAuthorization(ctx.config, job.authorization_id, job.request_id);
  } catch (err) {
    // Voided already (by an earlier run whose answer was lost, or at PayPal): the same outcome.
    if (!(err instanceof PayPalError && (err.issue === 'PREVIOUSLY_VOIDED' || err.issue === 'AUTHORIZATION_VOIDED'))) throw err;
  }
  await ctx.db.transaction(async (tx) => {
    const row = await lockRequest(tx, job.transfer_id);
    if (!row || row.payment_status !== 'authorized' || row.provider_authorization_id !== job.authorization_id) return;
    await writeMoney(tx, { from: row, set: { payment_status: 'voided' }, events: ['payment_voided'], actor: null, note: null });
  });
}
