import type { AdminOperatorPrefix, OperatorPrefixInput, OperatorPrefixJson, OperatorPrefixUpdate } from '@core/api/operators.js';
import type { ChannelId } from '@core/channels.js';
import {
  acceptedOperators, isMobileChannel, readMobileNumber, type MobileChannelId, type OperatorPrefix,
} from '@core/operators.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { recordAudit, type Actor } from '../audit/service.js';
import * as repo from './repo.js';

// Which numbers a mobile-money payout may go to (docs/rules/corridors.md#phone-country-rules):
// the operators' ranges, read by everyone, edited by the admin. The table is published like the
// prices: kept in memory (ctx.prices) and cleared in every process by each edit's NOTIFY
// (docs/decisions/016-price-cache-and-scale-out.md).

type Ctx = Pick<AppContext, 'db' | 'prices'>;

const toPublic = (row: repo.OperatorPrefixRow): OperatorPrefixJson =>
  ({ channel: row.channel as MobileChannelId, operator: row.operator, prefix: row.prefix });

const toAdmin = (row: repo.OperatorPrefixRow): AdminOperatorPrefix =>
  ({ ...toPublic(row), id: row.id, updated_at: row.updated_at.toISOString(), updated_by: row.updated_by });

/** The table as stored now (from memory while this process hears every edit). */
function currentTable(ctx: Ctx): Promise<readonly OperatorPrefix[]> {
  return ctx.prices.value('operators', async () => Object.freeze((await repo.listPrefixes(ctx.db)).map(toPublic)));
}

/** GET /api/operators: the whole table, serialized once per edit. */
export function publishedOperators(ctx: Ctx) {
  return ctx.prices.get('operators', async () => ({ data: await currentTable(ctx) }));
}

/**
 * A payout number of one of the destination's operators, in E.164; otherwise a 400 whose message,
 * also on `field`, names the operators and their ranges. Other channels' details pass as they are.
 */
export async function payoutNumber(ctx: Ctx, destination: ChannelId, phone: string, field: string): Promise<string> {
  if (!isMobileChannel(destination)) return phone;
  const table = await currentTable(ctx);
  const reading = readMobileNumber(table, destination, phone);
  if (reading.status === 'valid') return reading.e164;
  // The operators' list is written in the caller's language.
  throw AppError.onField('recipient_phone_operator', field, {
    operators: (lang) => acceptedOperators(table, destination, lang).operators,
    numbers: (lang) => acceptedOperators(table, destination, lang).numbers,
  });
}

/** The operator whose range holds a stored payout number (E.164), or null when none does now (read from the table, for jobs). */
export async function numberOperator(db: Db, channel: MobileChannelId, e164: string): Promise<string | null> {
  const reading = readMobileNumber((await repo.listPrefixes(db)).map(toPublic), channel, e164);
  return reading.status === 'valid' ? reading.operator : null;
}

// ---- the admin's edits ----

export async function adminTable(ctx: Ctx): Promise<AdminOperatorPrefix[]> {
  return (await repo.listPrefixes(ctx.db)).map(toAdmin);
}

/** One range per number: a prefix may not start another of its channel, nor be started by one. */
function refuseOverlap(others: repo.OperatorPrefixRow[], prefix: string): void {
  const clash = others.find((o) => o.prefix.startsWith(prefix) || prefix.startsWith(o.prefix));
  if (!clash) return;
  throw AppError.onField('operator_prefix_overlap', 'prefix', { prefix, other: clash.prefix, operator: clash.operator });
}

/** An edit of the table: NOTIFY in its transaction, and this process's copy dropped after the commit. */
async function editTable<T>(ctx: Ctx, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await ctx.db.transaction(async (tx) => {
    const done = await work(tx);
    await repo.notifyTableEdit(tx);
    return done;
  });
  ctx.prices.invalidate();
  return result;
}

export function createPrefix(ctx: Ctx, actor: Actor, input: OperatorPrefixInput): Promise<AdminOperatorPrefix> {
  return editTable(ctx, async (tx) => {
    refuseOverlap(await repo.lockChannel(tx, input.channel), input.prefix);
    const row = toAdmin(await repo.insertPrefix(tx, input, actor.profile_id));
    await recordAudit(tx, actor, { action: 'operator_prefix.create', target: 'operator_prefix', id: row.id, after: row });
    return row;
  });
}

/** The range's channel locked, with the range as it is then; 404 when there is none. */
async function lockRange(tx: Tx, id: string): Promise<{ before: repo.OperatorPrefixRow; others: repo.OperatorPrefixRow[] }> {
  const seen = await repo.findPrefix(tx, id);
  if (!seen) throw new AppError('not_found');
  const rows = await repo.lockChannel(tx, seen.channel);
  const before = rows.find((r) => r.id === id);
  if (!before) throw new AppError('not_found');
  return { before, others: rows.filter((r) => r.id !== id) };
}

export function updatePrefix(ctx: Ctx, actor: Actor, id: string, input: OperatorPrefixUpdate): Promise<AdminOperatorPrefix> {
  return editTable(ctx, async (tx) => {
    const { before, others } = await lockRange(tx, id);
    refuseOverlap(others, input.prefix);
    const row = toAdmin(await repo.replacePrefix(tx, id, input, actor.profile_id));
    await recordAudit(tx, actor, { action: 'operator_prefix.update', target: 'operator_prefix', id, before: toAdmin(before), after: row });
    return row;
  });
}

/** A channel keeps at least one range: without one, no payout number could be accepted. */
export function deletePrefix(ctx: Ctx, actor: Actor, id: string): Promise<void> {
  return editTable(ctx, async (tx) => {
    const { before, others } = await lockRange(tx, id);
    if (others.length === 0) throw new AppError('operator_last_prefix');
    await repo.removePrefix(tx, id);
    await recordAudit(tx, actor, { action: 'operator_prefix.delete', target: 'operator_prefix', id, before: toAdmin(before) });
  });
}
