import { sql } from 'drizzle-orm';
import type { ChannelId } from '@core/channels.js';
import type { EntryKind } from '@core/ledger.js';
import type { Currency } from '@core/money.js';
import type { TransferStatus } from '@core/status.js';
import type { Db, Tx } from '@server/db/client.js';
import { reconciliationStatements, statementLines } from '@server/db/schema.js';

// Reconciliation's SQL. Every read of the view is bounded: balances come from ledger_balances and
// statement-line counts and totals from statement_line_totals (both kept by triggers); lists walk
// an index newest first and stop at the limit.

export interface StatementRow {
  id: string;
  account: ChannelId;
  currency: Currency;
  as_of: Date;
  balance: string | null;
  filename: string | null;
  created_at: Date;
}

/** Serializes the writers of one account's statements and matches (two imports never pair one book line twice). */
export async function lockAccount(tx: Tx, account: ChannelId): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`reconciliation:${account}`}))`);
}

export async function insertStatement(tx: Tx, s: { account: ChannelId; currency: Currency; as_of: Date; balance: string | null; filename: string | null; created_by: string }): Promise<StatementRow> {
  const [row] = await tx.insert(reconciliationStatements).values(s).returning();
  return row as StatementRow;
}

export async function insertStatementLines(tx: Tx, statementId: string, account: ChannelId, lines: { posted_on: string; reference: string | null; description: string | null; amount: string }[]): Promise<void> {
  // In batches: a statement holds up to 10,000 lines, far under the protocol's parameter limit per batch.
  for (let i = 0; i < lines.length; i += 1000) {
    await tx.insert(statementLines).values(lines.slice(i, i + 1000).map((l) => ({
      statement_id: statementId, account, posted_on: new Date(`${l.posted_on}T00:00:00Z`), reference: l.reference, description: l.description, amount: l.amount,
    })));
  }
}

export async function unmatchedStatementLines(tx: Tx, account: ChannelId) {
  const { rows } = await tx.execute<{ id: number; reference: string | null; description: string | null; amount: string }>(sql`
    select id::int as id, reference, description, amount::text as amount from statement_lines
    where account = ${account} and ledger_line_id is null order by id`);
  return rows;
}

/**
 * The account's book lines no statement line holds yet whose entry's reference, or transfer's
 * reference, is one of the keys. Transfer references go through their unique index; entry
 * references are joined by hash (ledger_entries has no index on reference).
 */
export async function candidateBookLines(tx: Tx, account: ChannelId, currency: Currency, references: string[], transfers: string[]) {
  if (references.length === 0 && transfers.length === 0) return [];
  const { rows } = await tx.execute<{ id: number; amount: string; entry_reference: string | null; transfer_reference: string | null }>(sql`
    with by_transfer as (
      select l.id from transfer_requests t
      join ledger_entries e on e.transfer_request_id = t.id
      join ledger_lines l on l.entry_id = e.id and l.account = ${account} and l.currency = ${currency}
      where t.reference in (select jsonb_array_elements_text(${JSON.stringify(transfers)}::jsonb))
    ), by_entry as (
      select l.id from ledger_entries e
      join (select distinct jsonb_array_elements_text(${JSON.stringify(references)}::jsonb) as ref) k on lower(trim(e.reference)) = k.ref
      join ledger_lines l on l.entry_id = e.id and l.account = ${account} and l.currency = ${currency}
    )
    select l.id::int as id, l.amount::text as amount, e.reference as entry_reference, t.reference as transfer_reference
    from (select id from by_transfer union select id from by_entry) c
    join ledger_lines l on l.id = c.id
    join ledger_entries e on e.id = l.entry_id
    left join transfer_requests t on t.id = e.transfer_request_id
    where not exists (select 1 from statement_lines s where s.ledger_line_id = l.id)
    order by l.id`);
  return rows;
}

export async function setMatches(tx: Tx, pairs: { statement_line_id: number; ledger_line_id: number }[]): Promise<void> {
  for (let i = 0; i < pairs.length; i += 5000) {
    const batch = pairs.slice(i, i + 5000);
    await tx.execute(sql`
      update statement_lines s set ledger_line_id = p.ledger_line_id
      from (select (x ->> 0)::bigint as statement_line_id, (x ->> 1)::bigint as ledger_line_id
        from jsonb_array_elements(${JSON.stringify(batch.map((p) => [p.statement_line_id, p.ledger_line_id]))}::jsonb) x) p
      where s.id = p.statement_line_id and s.ledger_line_id is null`);
  }
}

// ---- the view ----

export async function bookBalances(db: Db) {
  const { rows } = await db.execute<{ account: string; currency: string; balance: string; lines: number }>(sql`
    select account, currency, sum(debits - credits)::text as balance, sum(lines)::int as lines from ledger_balances group by account, currency`);
  return rows;
}

/** The latest statement of each account that gives a balance (newest by date, then by entry). */
export async function latestStatements(db: Db, account?: ChannelId): Promise<StatementRow[]> {
  const { rows } = await db.execute<Omit<StatementRow, 'as_of' | 'created_at'> & { as_of: string; created_at: string }>(sql`
    select distinct on (account) id, account, currency, as_of, balance::text as balance, filename, created_at
    from reconciliation_statements
    where balance is not null ${account ? sql`and account = ${account}` : sql``}
    order by account, as_of desc, created_at desc`);
  return rows.map((r) => ({ ...r, as_of: new Date(r.as_of), created_at: new Date(r.created_at) }));
}

export type LineCounts = {
  account: ChannelId;
  lines: number;
  matched: number;
  matched_total: string;
  unmatched_total: string;
};

/** Per account: statement lines, those matched, and the sums of the matched and of the rest (kept by triggers). */
export async function statementCounts(db: Db, account?: ChannelId): Promise<LineCounts[]> {
  const { rows } = await db.execute<LineCounts>(sql`
    select account, lines::int as lines, matched::int as matched, matched_total::text as matched_total,
      unmatched_total::text as unmatched_total
    from statement_line_totals ${account ? sql`where account = ${account}` : sql``}`);
  return rows;
}

export type BookLineRow = {
  id: number;
  entry_id: number;
  kind: EntryKind;
  reference: string | null;
  amount: string;
  created_at: string;
  transfer_id: string | null;
  transfer_reference: string | null;
  sender_name: string | null;
  transfer_amount: string | null;
  transfer_total: string | null;
  transfer_currency: Currency | null;
  payout_amount: string | null;
  payout_currency: Currency | null;
  transfer_status: TransferStatus | null;
};

const bookLineColumns = sql`
  l.id::int as id, l.entry_id::int as entry_id, e.kind, e.reference, l.amount::text as amount, e.created_at,
  t.id as transfer_id, t.reference as transfer_reference, p.full_name as sender_name, t.amount::text as transfer_amount,
  t.total::text as transfer_total, t.currency as transfer_currency, t.payout_amount::text as payout_amount,
  t.payout_currency, t.status as transfer_status`;

/** The account's newest book lines that no statement line matched, with their transfers and senders. */
export async function unmatchedBookLines(db: Db, account: ChannelId, currency: Currency, limit: number): Promise<BookLineRow[]> {
  const { rows } = await db.execute<BookLineRow>(sql`
    select ${bookLineColumns}
    from (
      -- The account's index newest first (its order, nulls last), one probe of the unique index
      -- per line, stopping at the limit: a subquery, not NOT EXISTS, which the planner turns into
      -- an anti-join reading every statement line.
      select l.id from ledger_lines l
      where l.account = ${account} and l.currency = ${currency}
        and (select s.id from statement_lines s where s.ledger_line_id = l.id) is null
      order by l.id desc nulls last limit ${limit}
    ) u
    join ledger_lines l on l.id = u.id
    join ledger_entries e on e.id = l.entry_id
    left join transfer_requests t on t.id = e.transfer_request_id
    left join profiles p on p.id = t.profile_id
    order by l.id desc`);
  return rows;
}

export type StatementLineRow = {
  id: number;
  statement_id: string;
  posted_on: string | null;
  reference: string | null;
  description: string | null;
  amount: string;
};

const statementLineColumns = sql`s.id::int as id, s.statement_id, to_char(s.posted_on at time zone 'UTC', 'YYYY-MM-DD') as posted_on,
  s.reference, s.description, s.amount::text as amount`;

/** The account's newest statement lines that match no book line. */
export async function unmatchedStatement(db: Db, account: ChannelId, limit: number): Promise<StatementLineRow[]> {
  const { rows } = await db.execute<StatementLineRow>(sql`
    select ${statementLineColumns} from statement_lines s
    where s.account = ${account} and s.ledger_line_id is null
    order by s.id desc limit ${limit}`);
  return rows;
}

/** The account's newest matched pairs, the book line with its transfer. */
export async function matchedLines(db: Db, account: ChannelId, limit: number): Promise<(StatementLineRow & { book: BookLineRow })[]> {
  const { rows } = await db.execute<StatementLineRow & { book: BookLineRow }>(sql`
    select ${statementLineColumns}, (
      select row_to_json(b) from (
        select ${bookLineColumns}
        from ledger_lines l join ledger_entries e on e.id = l.entry_id
        left join transfer_requests t on t.id = e.transfer_request_id
        left join profiles p on p.id = t.profile_id
        where l.id = s.ledger_line_id
      ) b
    ) as book
    from statement_lines s
    where s.account = ${account} and s.ledger_line_id is not null
    order by s.id desc limit ${limit}`);
  return rows;
}

// ---- money frozen by compliance ----

export type FrozenRow = {
  id: string; reference: string; account: ChannelId; currency: Currency; amount: string; sender_name: string | null; closed_at: Date;
};

/** Transfers closed out (confirmed by a second person) whose received payment stays frozen, newest first. */
export async function frozenTransfers(db: Db): Promise<FrozenRow[]> {
  const { rows } = await db.execute<FrozenRow>(sql`
    select t.id, t.reference, t.source_provider as account, t.currency, t.payment_amount::text as amount,
      nullif(trim(p.full_name), '') as sender_name, c.confirmed_at as closed_at
    from compliance_close_outs c join transfer_requests t on t.id = c.transfer_request_id
      left join profiles p on p.id = t.profile_id
    where c.confirmed_at is not null and t.payment_status = 'received' and t.payment_amount is not null
    order by c.confirmed_at desc, t.id`);
  return rows.map((r) => ({ ...r, closed_at: new Date(r.closed_at) }));
}
