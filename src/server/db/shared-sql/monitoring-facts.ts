import { sql } from 'drizzle-orm';
import type { MonitoredTransfer } from '@core/monitoring/evaluate.js';
import type { Db, Tx } from '../client.js';
import { preparedPerDatabase, rowsOf } from '../prepared.js';

// The facts the monitoring rules read (docs/rules/monitoring.md): read alone by monitoring, and
// inside the initiation's reads under its senders' locks (transfers/initiation-statement.ts),
// which must stay one statement; so the query lives here, not in either module.
/**
 * A transfer's recipient account as core's accountKey writes it; the very expression of the index
 * transfer_requests_recipient_account_idx (migration 0018), so a lookup by account reads that index.
 */
const accountExpr = (alias: string) => `coalesce('iban:' || (${alias}."destination_details" ->> 'iban'), 'phone:' || (${alias}."destination_details" ->> 'recipient_phone'),
    'email:' || lower(${alias}."destination_details" ->> 'recipient_email'))`;
const ACCOUNT = (alias: string) => sql.raw(accountExpr(alias));

/** A transfer the rules count: neither cancelled nor rejected. */
export const COUNTED = (alias: string) => sql.raw(`${alias}."status" NOT IN ('cancelled', 'rejected')`);

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
const factsStatement = preparedPerDatabase((db: Db | Tx) => factsRows(db, factsQuery, 'monitoring_facts'));

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
export async function readFacts(db: Db | Tx, transfers: readonly FactsOf[], windows: FactsWindows): Promise<RawFacts[]> {
  if (transfers.length === 0) return [];
  return factsOfRows(transfers, await factsStatement(db).execute(factsValues(transfers, windows)));
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
