import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { AccountClosedResponse, CloseBlocker, MyDataExport } from '@core/api/privacy.js';
import { AppError } from '@core/errors.js';
import type { AccountClose } from '@core/schemas.js';
import { isFinalStatus, isStaff } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { t, type Lang } from '@server/i18n.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { findAccountById } from '../auth/service.js';
import type { AuthUser } from '../auth/service.js';
import { assertOwner } from '../auth/service.js';
import { eraseSendersBankFiles } from '../bank/service.js';
import { holdInitiations } from '../transfers/service.js';
import * as repo from './repo.js';

// A sender's own data (docs/rules/your-data.md): everything held about them as one file,
// and the closure of their account: what no law requires erased at once, the rest kept
// RETENTION_YEARS after closure and then erased by the retention job.

/** How long anti-money-laundering law has us keep identity and transfers after an account closes. */
const RETENTION_YEARS = 5;
/** Accounts erased per transaction of the retention job: a backlog goes in short steps. */
const ERASE_BATCH = 50;

/** Everything held about the caller; the download is audited. */
export async function exportMyData(db: Db, me: AuthUser, actor: Actor): Promise<MyDataExport> {
  const sections = await repo.exportSections(db, me.profile_id);
  if (!sections.profile) throw new AppError('not_found');
  await recordAudit(db, actor, { action: 'profile.export', target: 'profile', id: me.profile_id });
  return { format: 1, exported_at: new Date().toISOString(), ...sections, profile: sections.profile };
}

/** The refusal naming the transfers that keep the account open (the unfinished ones first), or null. */
function blockedBy(blockers: CloseBlocker[]): AppError | null {
  if (blockers.length === 0) return null;
  const open = blockers.filter((b) => !isFinalStatus(b.status));
  const listed = open.length > 0 ? open : blockers;
  return new AppError(open.length > 0 ? 'close_open_transfers' : 'close_money_owed', {
    vars: { references: listed.map((b) => b.reference).join(', ') },
    extra: { transfers: listed },
  });
}

/**
 * Closes the caller's account with the owner's proof: refused while a transfer is unfinished or
 * money is owed (409, naming them), and for staff, whose accounts an admin manages. Checked
 * before the proof (no code is mailed for nothing) and again under the profile's lock.
 */
export async function closeMyAccount(ctx: AppContext, reply: FastifyReply, me: AuthUser, proof: AccountClose, actor: Actor, lang: Lang): Promise<AccountClosedResponse> {
  const profile = await findAccountById(ctx.db, me.profile_id);
  if (!profile) throw new AppError('not_found');
  if (isStaff(profile.role)) throw new AppError('close_staff_account');
  const refusal = blockedBy(await repo.closeBlockers(ctx.db, profile.id));
  if (refusal) throw refusal;
  await assertOwner(ctx, reply, profile, proof);
  const closedAt = await ctx.db.transaction(async (tx) => {
    // First the sender's initiations (in their order of locks): one under way is written and
    // found below; one after this commits finds the account closed.
    await holdInitiations(tx, profile.id);
    const locked = await repo.lockOpenProfile(tx, profile.id);
    if (!locked) throw new AppError('not_found');
    const late = blockedBy(await repo.closeBlockers(tx, profile.id));
    if (late) throw late;
    const at = await repo.eraseAtClosure(tx, profile.id, locked.email);
    await recordAudit(tx, actor, { action: 'profile.close', target: 'profile', id: profile.id, after: { closed_at: at.toISOString(), retention_years: RETENTION_YEARS } });
    return at;
  });
  return { message: t(lang, 'auth.yourData.closed'), closed_at: closedAt.toISOString() };
}

/**
 * The retention job: erases what was kept of every account closed more than RETENTION_YEARS
 * before `now` (the job's clock: the scheduled run passes none, a test moves it), a batch per
 * transaction, each erasure audited. Returns how many accounts it erased.
 */
export async function eraseExpiredAccounts(deps: { db: Db; log: Logger }, now: Date = new Date()): Promise<number> {
  let erased = 0;
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const ids = await repo.lockExpired(tx, RETENTION_YEARS, ERASE_BATCH, now);
      for (const id of ids) {
        await repo.eraseKept(tx, id);
        // The bank files already made keep the payouts' amounts and references, not the recipients' names and IBANs.
        await eraseSendersBankFiles(tx, id);
        await recordAudit(tx, null, { action: 'profile.erase', target: 'profile', id, after: { retention_years: RETENTION_YEARS } });
      }
      return ids.length;
    });
    erased += done;
    if (done < ERASE_BATCH) break;
  }
  if (erased > 0) deps.log.info({ erased }, 'closed accounts past their retention erased');
  return erased;
}
