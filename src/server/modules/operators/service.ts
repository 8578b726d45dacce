import type { AdminOperatorPrefix, OperatorPrefixInput, OperatorPrefixJson, OperatorPrefixUpdate } from '@core/api/operators.js';
import type { ChannelId } from '@core/channels.js';
import {
  acceptedOperators, isMobileChannel, OPERATOR_REFUSAL_KEY, readMobileNumber, type MobileChannelId, type OperatorPrefix,
} from '@core/operators.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { t, type Lang } from '@server/i18n.js';
import { conflict, HttpError, notFound } from '@server/lib/http-error.js';
import { recordAudit, type Actor } from '../audit/service.js';
import * as repo from './repo.js';

// Which numbers a mobile-money payout may go to (D16, docs/rules/corridors.md#phone-country-rules):
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
export async function payoutNumber(ctx: Ctx, destination: ChannelId, phone: string, field: string, lang: Lang): Promise<string> {
  if (!isMobileChannel(destination)) return phone;
  const table = await currentTable(ctx);
  const reading = readMobileNumber(table, destination, phone);
  if (reading.status === 'valid') return reading.e164;
  const vars = acceptedOperators(table, destination, lang);
  throw new HttpError(400, OPERATOR_REFUSAL_KEY, { fields: { [field]: t(lang, OPERATOR_REFUSAL_KEY, vars) } }, vars);
}

// ---- the admin's edits ----

export async function adminTable(ctx: Ctx): Promise<AdminOperatorPrefix[]> {
  return (await repo.listPrefixes(ctx.db)).map(toAdmin);
}

/** One range per number: a prefix may not start another of its channel, nor be started by one. */
function refuseOverlap(others: repo.OperatorPrefixRow[], prefix: string, lang: Lang): void {
  const clash = others.find((o) => o.prefix.startsWith(prefix) || prefix.startsWith(o.prefix));
  if (!clash) return;
  const vars = { prefix, other: clash.prefix, operator: clash.operator };
  const key = 'admin.validation.operatorPrefixOverlap';
  throw conflict(key, { fields: { prefix: t(lang, key, vars) } }, vars);
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

export function createPrefix(ctx: Ctx, actor: Actor, input: OperatorPrefixInput, lang: Lang): Promise<AdminOperatorPrefix> {
  return editTable(ctx, async (tx) => {
    refuseOverlap(await repo.lockChannel(tx, input.channel), input.prefix, lang);
    const row = toAdmin(await repo.insertPrefix(tx, input, actor.profile_id));
    await recordAudit(tx, actor, { action: 'operator_prefix.create', target: 'operator_prefix', id: row.id, after: row });
    return row;
  });
}

/** The range's channel locked, with the range as it is then; 404 when there is none. */
async function lockRange(tx: Tx, id: string): Promise<{ before: repo.OperatorPrefixRow; others: repo.OperatorPrefixRow[] }> {
  const seen = await repo.findPrefix(tx, id);
  if (!seen) throw notFound();
  const rows = await repo.lockChannel(tx, seen.channel);
  const before = rows.find((r) => r.id === id);
  if (!before) throw notFound();
  return { before, others: rows.filter((r) => r.id !== id) };
}

export function updatePrefix(ctx: Ctx, actor: Actor, id: string, input: OperatorPrefixUpdate, lang: Lang): Promise<AdminOperatorPrefix> {
  return editTable(ctx, async (tx) => {
    const { before, others } = await lockRange(tx, id);
    refuseOverlap(others, input.prefix, lang);
    const row = toAdmin(await repo.replacePrefix(tx, id, input, actor.profile_id));
    await recordAudit(tx, actor, { action: 'operator_prefix.update', target: 'operator_prefix', id, before: toAdmin(before), after: row });
    return row;
  });
}

/** A channel keeps at least one range: without one, no payout number could be accepted. */
export function deletePrefix(ctx: Ctx, actor: Actor, id: string): Promise<void> {
  return editTable(ctx, async (tx) => {
    const { before, others } = await lockRange(tx, id);
    if (others.length === 0) throw conflict('admin.validation.operatorLastPrefix');
    await repo.removePrefix(tx, id);
    await recordAudit(tx, actor, { action: 'operator_prefix.delete', target: 'operator_prefix', id, before: toAdmin(before) });
  });
}
