import { AppError } from '@core/errors.js';
import type { AppContext } from '@server/context.js';
import { bankAccount, createBankFile } from './files.js';

// The daily cut-off (docs/rules/bank-rail.md#the-daily-cut-off): with BANK_FILE_CUTOFF set, a
// scheduled job gathers what is ready into a file at that time of day, as "create bank file"
// does, audited as the system. Nothing ready, or the rail off, makes no file and is no failure.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/** BANK_FILE_CUTOFF ("HH:MM", UTC) as the worker's cron line ("MM HH * * *"). */
export function cutoffCron(cutoff: string): string {
  const [hours, minutes] = cutoff.split(':').map(Number);
  return `${minutes} ${hours} * * *`;
}

/** The cut-off's job: the file made (its id, count and control sum), or null when none was due. */
export async function runBankFileCutoff(ctx: Ctx): Promise<{ id: string; count: number; control_sum: string } | null> {
  if (!ctx.config.BANK_FILE_CUTOFF || !bankAccount(ctx.config)) return null;
  try {
    return await createBankFile(ctx, null);
  } catch (error) {
    if (error instanceof AppError && (error.code === 'bank_nothing_ready' || error.code === 'bank_rail_off')) return null;
    throw error;
  }
}
