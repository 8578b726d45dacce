import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { enqueue } from '../jobs/service.js';
import { DeferredStepsSchema, queueSteps, type DeferredSteps } from '../transfers/service.js';

// The senders' e-mails about the payouts a statement's import settled or returned: kept with the
// import and queued by one job after its commit, as a bank file's are (files.ts). Queued in the
// import, 40,000 of them held its transaction for more than a second.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/** Keeps the import's e-mails and queues the one job that queues them, in the import's transaction. */
export async function queueStatementMails(ctx: Ctx, tx: Tx, statementId: string, steps: DeferredSteps): Promise<void> {
  if (steps.length === 0) return;
  const { rows: [kept] } = await tx.execute<{ id: string }>(sql`insert into bank_statement_mails (statement_id, steps)
    values (${statementId}::uuid, ${JSON.stringify(steps)}::jsonb) returning id`);
  await enqueue(tx, 'bank_statement_mails', { id: kept!.id }, ctx.config.JOB_MAX_ATTEMPTS, `bank-statement-mails:${kept!.id}`);
}

const Payload = z.object({ id: z.uuid() });

/** The job of an import's e-mails: each step queued as the import would have queued it, once. */
export async function runStatementMailsJob(ctx: Ctx, payload: unknown): Promise<void> {
  const { id } = Payload.parse(payload);
  await ctx.db.transaction(async (tx) => {
    // Run again after a crash that came between this commit and the job's end: already queued.
    const { rows: [kept] } = await tx.execute<{ steps: unknown }>(sql`update bank_statement_mails m set queued_at = now(), steps = '[]'::jsonb
      from (select id, steps from bank_statement_mails where id = ${id}::uuid and queued_at is null for update) before
      where m.id = before.id returning before.steps`);
    if (!kept) return;
    await queueSteps(ctx, tx, DeferredStepsSchema.parse(kept.steps));
  });
}
