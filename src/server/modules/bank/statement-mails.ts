import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { enqueue } from '../jobs/service.js';
import { DeferredStepsSchema, queueSteps, type DeferredSteps } from '../transfers/service.js';

// The senders' e-mails about the payouts a statement's import settled or returned: kept with each
// batch of the import and queued by one job after its commit, as a bank file's are (files.ts).
// Queued in the import, 40,000 of them held its transaction for more than a second.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/**
 * The steps as kept: each transfer's steps joined in their order, the transfers told the same
 * steps listed together. 32,000 transfers of a statement, each with its own copy of the same two
 * steps, were 5 MB of JSON whose insert took half a second.
 */
const KeptSchema = z.array(z.object({ steps: DeferredStepsSchema.element.shape.steps, transfer_ids: z.array(z.uuid()) }));

function kept(steps: DeferredSteps): z.infer<typeof KeptSchema> {
  const stepsOf = new Map<string, DeferredSteps[number]['steps']>();
  for (const { transfer_id, steps: more } of steps) stepsOf.set(transfer_id, [...(stepsOf.get(transfer_id) ?? []), ...more]);
  const told = new Map<string, { steps: DeferredSteps[number]['steps']; transfer_ids: string[] }>();
  for (const [transferId, all] of stepsOf) {
    const key = JSON.stringify(all);
    const same = told.get(key) ?? told.set(key, { steps: all, transfer_ids: [] }).get(key)!;
    same.transfer_ids.push(transferId);
  }
  return [...told.values()];
}

/** Keeps a batch's e-mails and queues the one job that queues them, in the batch's transaction. */
export async function queueStatementMails(ctx: Ctx, tx: Tx, statementId: string, steps: DeferredSteps): Promise<void> {
  if (steps.length === 0) return;
  const { rows: [made] } = await tx.execute<{ id: string }>(sql`insert into bank_statement_mails (statement_id, steps)
    values (${statementId}::uuid, ${JSON.stringify(kept(steps))}::jsonb) returning id`);
  await enqueue(tx, 'bank_statement_mails', { id: made!.id }, ctx.config.JOB_MAX_ATTEMPTS, `bank-statement-mails:${made!.id}`);
}

const Payload = z.object({ id: z.uuid() });

/** The job of an import's e-mails: each step queued as the import would have queued it, once. */
export async function runStatementMailsJob(ctx: Ctx, payload: unknown): Promise<void> {
  const { id } = Payload.parse(payload);
  await ctx.db.transaction(async (tx) => {
    // Run again after a crash that came between this commit and the job's end: already queued.
    const { rows: [row] } = await tx.execute<{ steps: unknown }>(sql`update bank_statement_mails m set queued_at = now(), steps = '[]'::jsonb
      from (select id, steps from bank_statement_mails where id = ${id}::uuid and queued_at is null for update) before
      where m.id = before.id returning before.steps`);
    if (!row) return;
    await queueSteps(ctx, tx, KeptSchema.parse(row.steps).flatMap(({ steps, transfer_ids }) => transfer_ids.map((transfer_id) => ({ transfer_id, steps }))));
  });
}
