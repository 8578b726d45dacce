import { sql } from 'drizzle-orm';
import type { MonitoredTransfer } from '@core/monitoring/evaluate.js';
import type { CaseOutcome, CaseStatus } from '@core/monitoring/cases.js';
import type { MonitoringRule } from '@core/monitoring/rules.js';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';

// The monitoring's SQL (docs/rules/monitoring.md): the facts the rules read, the rules' settings,
// the alerts and the cases.

type Conn = Db | Tx;

/**
 * A transfer's recipient account as core's accountKey writes it; the very expression of the index
 * transfer_requests_recipient_account_idx (migration 0018), so a lookup by account reads that index.
 */
const accountExpr = (alias: string) => `coalesce('iban:' || (${alias}."destination_details" ->> 'iban'), 'phone:' || (${alias}."destination_details" ->> 'recipient_phone'),
    'email:' || lower(${alias}."destination_details" ->> 'recipient_email'))`;
const ACCOUNT = (alias: string) => sql.raw(accountExpr(alias));

const COUNTED = (alias: string) => sql.raw(`${alias}."status" NOT IN ('cancelled', 'rejected')`);

/**
 * A transfer's columns as the rules read them, as one JSON array (a third of an object's cost to
 * build, for the rows read on every initiation), in the order {@link monitored} reads them.
 */
const MONITORED = (alias: string) => sql.raw(`json_build_array(${alias}.id, ${alias}.reference, ${alias}.profile_id,
  ${alias}.amount::text, ${alias}.currency, ${msText(`${alias}.created_at`)}, ${accountExpr(alias)}, ${alias}.destination_details ->> 'recipient_name')`);

/**
 * A time as milliseconds since 1970, the cheapest form for PostgreSQL to write and for JavaScript
 * to read: parsing PostgreSQL's text of times was a quarter of an initiation's monitoring.
 */
function msText(expr: string): string {
  return `floor(date_part('epoch', ${expr}) * 1000)::int8`;
}
const MS = (expr: string) => sql.raw(msText(expr));

/** Milliseconds since 1970 (as a JSON number, or as text from an int8 column) in ISO 8601. */
const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

type MonitoredArray = [string, string, string, string, MonitoredTransfer['currency'], number, string | null, string | null];

function monitored([id, reference, profile_id, amount, currency, created_ms, account, recipient_name]: MonitoredArray): MonitoredTransfer {
  return { id, reference, profile_id, amount, currency, created_ms, account, recipient_name };
}

export interface RawFacts {
  /** When the transfer is judged as made, in milliseconds since 1970. */
  at: number;
  sender_created_at: string;
  transfer_limit_eur: string | null;
  previous_transfer_at: string | null;
  sender_transfers: MonitoredTransfer[];
  account_transfers: MonitoredTransfer[];
  rates: Record<string, string>;
  /** The rules that alerted this sender in the 24 hours before the transfer, in their case still open. */
  recent_rules: string[];
  /** Whether a hold names the sender (it holds their every transfer). */
  sender_held: boolean;
}

type FactsRow = {
  at: string; sender_created_at: string; transfer_limit_eur: string | null; previous_transfer_at: string | null; sender_held: boolean;
  sender_transfers: MonitoredArray[]; account_transfers: MonitoredArray[]; rates: Record<string, string> | null; recent_rules: string[];
};

/**
 * One transfer whose facts are read: one written (judged as of its creation, read in the database
 * to the microsecond, so the transfers written in the same statement count as made with it), or
 * (no id) one about to be written, judged as of now (its sender locked: what they sent before is
 * committed).
 */
export interface FactsOf {
  id: string | null;
  profile_id: string;
  account: string | null;
}

export interface FactsWindows {
  senderDays: number;
  accountDays: number;
  /** At most this many of the sender's, and of the account's, newest transfers. */
  cap: number;
}

const at = sql.raw('n.at');
const cap = sql`${sql.placeholder('cap')}::int`;
const EXCLUDED = (alias: string) => sql.raw(`${alias}.id is distinct from q.id`);
/**
 * The facts' statement, prepared by name once per connection: it runs on every initiation, for
 * every transfer of the batch at once (one row each, in the order given).
 */
const factsQuery = sql`select ${MS('n.at')} as at, ${MS('p.created_at')} as sender_created_at,
    (select l.transfer::text from kyc_limits l where l.level = greatest(1, least(3, p.kyc_level))) as transfer_limit_eur,
    (select ${MS('max(b.created_at)')} from transfer_requests b where b.profile_id = p.id and ${COUNTED('b')}
      and b.created_at < ${at} and ${EXCLUDED('b')}) as previous_transfer_at,
    exists (select 1 from compliance_holds h where h.profile_id = p.id and h.transfer_request_id is null and h.released_at is null) as sender_held,
    (select coalesce(json_agg(${MONITORED('s')}), '[]'::json) from (
      select * from transfer_requests s where s.profile_id = p.id and ${COUNTED('s')}
        and s.created_at > ${at} - make_interval(days => ${sql.placeholder('sender_days')}::int) and s.created_at <= ${at} and ${EXCLUDED('s')}
      order by s.created_at desc nulls last limit ${cap}) s) as sender_transfers,
    (select coalesce(json_agg(${MONITORED('a')}), '[]'::json) from (
      select * from transfer_requests a where ${ACCOUNT('a')} = q.account and ${COUNTED('a')}
        and a.created_at > ${at} - make_interval(days => ${sql.placeholder('account_days')}::int) and a.created_at <= ${at} and ${EXCLUDED('a')}
      order by a.created_at desc limit ${cap}) a) as account_transfers,
    (select json_object_agg(r.key, r.value::text) from rates r) as rates,
    (select coalesce(json_agg(distinct m.rule), '[]'::json) from monitoring_alerts m join monitoring_cases c on c.id = m.case_id and c.status <> 'closed'
      where m.profile_id = p.id and m.created_at > ${at} - interval '24 hours' and m.created_at <= ${at} + interval '1 minute') as recent_rules,
    q.ord
  from unnest(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('profile_ids')}::uuid[], ${sql.placeholder('accounts')}::text[])
      with ordinality as q(id, profile_id, account, ord)
    cross join lateral (select coalesce((select x.created_at from transfer_requests x where x.id = q.id), statement_timestamp()) as at) n
    join profiles p on p.id = q.profile_id
  order by q.ord`;
/** The facts' columns, in the order the query gives them (then each transfer's place in the list, `ord`). */
const FACTS_KEYS = ['at', 'sender_created_at', 'transfer_limit_eur', 'previous_transfer_at', 'sender_held',
  'sender_transfers', 'account_transfers', 'rates', 'recent_rules'] as const;
const factsRows = rowsOf<FactsRow>(Object.fromEntries(FACTS_KEYS.map((key) => [key, sql.raw(key)])));
const factsStatement = preparedPerDatabase((db) => factsRows(db, factsQuery, 'monitoring_facts'));

/**
 * The facts of {@link factsValues}' transfers as one JSON array of arrays, in their order: for a
 * statement that reads them with other things (the initiation's reads under the senders' locks).
 */
export const factsJson = sql`(select coalesce(json_agg(json_build_array(${sql.raw(FACTS_KEYS.map((key) => `f.${key}`).join(', '))}) order by f.ord), '[]'::json)
  from (${factsQuery}) f)`;

/**
 * Everything the rules read about each transfer, in one round trip: when it is judged as made, the
 * sender's account and limit, whether a hold names the sender, their counted transfers of the last
 * `senderDays` days before it (transfer_requests_profile_created_idx), their latest before it
 * however old, the recipient account's payments of the last `accountDays` days
 * (transfer_requests_recipient_account_idx), the published rates, and the rules that alerted the
 * sender in the 24 hours before it in their open case (monitoring_alerts_profile_idx). At most
 * `cap` rows each, the newest.
 */
export async function readFacts(db: Conn, transfers: readonly FactsOf[], windows: FactsWindows): Promise<RawFacts[]> {
  if (transfers.length === 0) return [];
  return factsOfRows(transfers, await factsStatement(db as Db).execute(factsValues(transfers, windows)));
}

/** The facts' statement's values for `transfers` read within `windows`. */
export function factsValues(transfers: readonly FactsOf[], windows: FactsWindows): Record<string, unknown> {
  return {
    ids: transfers.map((t) => t.id), profile_ids: transfers.map((t) => t.profile_id),
    // No account, or no rule reading the account's payments: the account's read finds nothing.
    accounts: transfers.map((t) => (windows.accountDays > 0 ? t.account : null)),
    sender_days: windows.senderDays, account_days: windows.accountDays, cap: windows.cap,
  };
}

/** {@link factsJson}'s arrays, read. */
export function factsOfJson(transfers: readonly FactsOf[], arrays: unknown[][]): RawFacts[] {
  return factsOfRows(transfers, arrays.map((values) => Object.fromEntries(FACTS_KEYS.map((key, i) => [key, values[i]])) as FactsRow));
}

function factsOfRows(transfers: readonly FactsOf[], rows: FactsRow[]): RawFacts[] {
  if (rows.length !== transfers.length) throw new Error('monitoring: a transfer\'s sender does not exist');
  return rows.map((row) => ({
    at: Number(row.at), sender_created_at: iso(row.sender_created_at), transfer_limit_eur: row.transfer_limit_eur,
    previous_transfer_at: row.previous_transfer_at === null ? null : iso(row.previous_transfer_at), sender_held: row.sender_held,
    sender_transfers: row.sender_transfers.map(monitored), account_transfers: row.account_transfers.map(monitored), rates: row.rates ?? {},
    recent_rules: row.recent_rules,
  }));
}

// ---- the rules' settings ----

export type RuleRow = { rule: MonitoringRule; enabled: boolean; holds: boolean; thresholds: Record<string, unknown>; updated_at: Date };

export async function ruleRows(db: Conn): Promise<RuleRow[]> {
  const result = await db.execute<RuleRow & { updated_at: string }>(sql`select rule, enabled, holds, thresholds, updated_at::text from monitoring_rules`);
  return result.rows.map((r) => ({ ...r, updated_at: new Date(r.updated_at) }));
};

export async function upsertRule(tx: Tx, rule: MonitoringRule, value: { enabled: boolean; holds: boolean; thresholds: object }, by: string): Promise<void> {
  await tx.execute(sql`insert into monitoring_rules (rule, enabled, holds, thresholds, updated_by, updated_at)
    values (${rule}, ${value.enabled}, ${value.holds}, ${JSON.stringify(value.thresholds)}::jsonb, ${by}, now())
    on conflict (rule) do update set enabled = excluded.enabled, holds = excluded.holds, thresholds = excluded.thresholds,
      updated_by = excluded.updated_by, updated_at = now()`);
}

// ---- alerts and cases ----

/** The sender's case not closed, made when there is none (one per sender, by the partial unique index). */
export async function openCaseOf(tx: Conn, profileId: string): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await tx.execute<{ id: string }>(sql`with existing as (
        select id from monitoring_cases where profile_id = ${profileId} and status <> 'closed'
      ), made as (
        insert into monitoring_cases (profile_id) select ${profileId} where not exists (select 1 from existing)
        on conflict (profile_id) where status <> 'closed' do nothing returning id
      ) select id from existing union all select id from made`);
    if (result.rows[0]) return result.rows[0].id;
  }
  throw new Error('monitoring: no case could be opened');
}

/** The alert, or null when this rule already raised one for this transfer (the nightly sweep meets the initiation's). */
export async function insertAlert(tx: Conn, alert: { rule: MonitoringRule; evidence: object; transferId: string; profileId: string; caseId: string; held: boolean }): Promise<string | null> {
  const result = await tx.execute<{ id: string }>(sql`insert into monitoring_alerts (rule, evidence, transfer_request_id, profile_id, case_id, held)
    values (${alert.rule}, ${JSON.stringify(alert.evidence)}::jsonb, ${alert.transferId}, ${alert.profileId}, ${alert.caseId}, ${alert.held})
    on conflict (rule, transfer_request_id) do nothing returning id`);
  return result.rows[0]?.id ?? null;
}

/** The rules that already raised an alert for `transferId`. */
export async function rulesRaised(db: Conn, transferId: string): Promise<Set<string>> {
  const result = await db.execute<{ rule: string }>(sql`select rule from monitoring_alerts where transfer_request_id = ${transferId}`);
  return new Set(result.rows.map((r) => r.rule));
}

export type CaseRow = {
  id: string; profile_id: string; status: CaseStatus; outcome: CaseOutcome | null; notes: CaseNoteRow[]; reviewer_id: string | null;
  created_at: string; investigating_at: string | null; closed_at: string | null; updated_at: string;
  full_name: string | null; email: string; alert_count: number; rules: MonitoringRule[];
};
export type CaseNoteRow = { at: string; by: string; from: CaseStatus; to: CaseStatus; outcome: CaseOutcome | null; note: string };

const CASE_SELECT = sql`select c.id, c.profile_id, c.status, c.outcome, c.notes, c.reviewer_id,
    c.created_at::text, c.investigating_at::text, c.closed_at::text, c.updated_at::text, p.full_name, p.email,
    (select count(*)::int from monitoring_alerts a where a.case_id = c.id) as alert_count,
    (select coalesce(array_agg(distinct a.rule), '{}') from monitoring_alerts a where a.case_id = c.id) as rules
  from monitoring_cases c join profiles p on p.id = c.profile_id`;

/** Cases, newest first, of one status or all; at most `limit`. */
export async function caseRows(db: Conn, status: CaseStatus | undefined, limit: number): Promise<CaseRow[]> {
  const where = status ? sql`where c.status = ${status}` : sql``;
  return (await db.execute<CaseRow>(sql`${CASE_SELECT} ${where} order by c.created_at desc limit ${limit}`)).rows;
};

export async function caseRow(db: Conn, id: string, lock = false): Promise<CaseRow | null> {
  if (lock) await db.execute(sql`select 1 from monitoring_cases where id = ${id} for update`);
  return (await db.execute<CaseRow>(sql`${CASE_SELECT} where c.id = ${id}`)).rows[0] ?? null;
}

export async function writeTransition(tx: Tx, id: string, change: { to: CaseStatus; outcome: CaseOutcome | null; note: CaseNoteRow; by: string }): Promise<void> {
  await tx.execute(sql`update monitoring_cases set status = ${change.to}, outcome = ${change.outcome}, reviewer_id = ${change.by},
    notes = notes || ${JSON.stringify([change.note])}::jsonb,
    investigating_at = case when ${change.to} = 'investigating' then now() else investigating_at end,
    closed_at = case when ${change.to} = 'closed' then now() else closed_at end, updated_at = now()
    where id = ${id}`);
}

export type AlertRow = {
  id: string; rule: MonitoringRule; evidence: Record<string, unknown>; transfer_id: string | null; transfer_reference: string | null; held: boolean; created_at: string;
};

export async function alertRows(db: Conn, caseId: string): Promise<AlertRow[]> {
  return (await db.execute<AlertRow>(sql`select a.id, a.rule, a.evidence, a.transfer_request_id as transfer_id, t.reference as transfer_reference,
      a.held, a.created_at::text
    from monitoring_alerts a left join transfer_requests t on t.id = a.transfer_request_id
    where a.case_id = ${caseId} order by a.created_at desc, a.id`)).rows;
}

/** The senders of the transfers a case's alerts were raised on (the case's sender, as alerts are raised today). */
export async function alertSenders(db: Conn, caseId: string): Promise<string[]> {
  return (await db.execute<{ profile_id: string }>(sql`select distinct t.profile_id from monitoring_alerts a
    join transfer_requests t on t.id = a.transfer_request_id where a.case_id = ${caseId}`)).rows.map((r) => r.profile_id);
}

export type CaseTransferRow = {
  id: string; reference: string; profile_id: string; created_at: string; status: string; amount: string; currency: string; fee: string; payout_amount: string;
  payout_currency: string; source_provider: string; destination_provider: string; destination_details: Record<string, string>;
  travel_rule: Record<string, unknown> | null;
};

/** The transfers a case's alerts name (their evidence's transfers and the transfer each was raised on), of any sender, oldest first. */
export async function caseTransferRows(db: Conn, caseId: string): Promise<CaseTransferRow[]> {
  return (await db.execute<CaseTransferRow>(sql`with ids as (
      select a.transfer_request_id as id from monitoring_alerts a where a.case_id = ${caseId} and a.transfer_request_id is not null
      union select (e ->> 'id')::uuid from monitoring_alerts a, jsonb_array_elements(a.evidence -> 'transfers') e where a.case_id = ${caseId}
    ) select t.id, t.reference, t.profile_id, t.created_at::text, t.status, t.amount::text, t.currency, t.fee::text, t.payout_amount::text, t.payout_currency,
      t.source_provider, t.destination_provider, t.destination_details, t.travel_rule
    from transfer_requests t join ids on ids.id = t.id order by t.created_at, t.id`)).rows;
}

export type PersonRow = { profile_id: string; full_name: string | null; email: string };

export async function personRow(db: Conn, id: string): Promise<PersonRow | null> {
  return (await db.execute<PersonRow>(sql`select id as profile_id, full_name, email from profiles where id = ${id}`)).rows[0] ?? null;
};

export type SenderRow = {
  profile_id: string; user_id: string; full_name: string | null; email: string; phone: string | null; date_of_birth: string | null;
  address: string | null; city: string | null; state: string | null; country: string | null; kyc_level: number; screened_for: string | null; created_at: string;
};

/** The sender as the report names them, with what their level is computed from (kyc's senderLevel). */
export async function senderRow(db: Conn, id: string): Promise<SenderRow | null> {
  return (await db.execute<SenderRow>(sql`select id as profile_id, user_id, full_name, email, phone, date_of_birth::text, address, city, state, country,
      kyc_level, screened_for, created_at::text from profiles where id = ${id}`)).rows[0] ?? null;
}

/** The transfers of the last `hours` hours, oldest first, for the nightly sweep (transfer_requests_created_idx). */
export async function recentTransfers(db: Conn, hours: number): Promise<{ id: string; reference: string; profile_id: string; amount: string; currency: string; status: string; destination_details: Record<string, unknown> }[]> {
  const result = await db.execute<{ id: string; reference: string; profile_id: string; amount: string; currency: string; status: string; destination_details: Record<string, unknown> }>(
    sql`select id, reference, profile_id, amount::text, currency, status, destination_details from transfer_requests
      where created_at > now() - make_interval(hours => ${hours}) and ${COUNTED('transfer_requests')} order by created_at, id`);
  return result.rows;
}
