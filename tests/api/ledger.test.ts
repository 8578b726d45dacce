import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECTION_IDS } from '@core/channels.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// The journal is kept by the database: balanced per currency, append-only, and its running
// balances always equal the sum of its lines (docs/rules/money-states.md).

let t: TestApp;
let sender: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, manager, admin] = await Promise.all([createUser(t), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
});
afterAll(async () => { await t.close(); });

/** Runs statements in one transaction as the app's connection would; answers the error, if any. */
async function inTransaction(statements: string[]): Promise<string | null> {
  const client = await t.database.pool.connect();
  try {
    await client.query('begin');
    for (const s of statements) await client.query(s);
    await client.query('commit');
    return null;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    return (err as Error).message;
  } finally {
    client.release();
  }
}

const entry = (lines: [string, string, string][]) => [
  `insert into ledger_entries (kind, reference) values ('payment', 'TEST')`,
  ...lines.map(([account, currency, amount]) =>
    `insert into ledger_lines (entry_id, account, currency, amount) values (currval('ledger_entries_id_seq'), '${account}', '${currency}', ${amount})`),
];

async function lineCount(): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>('select count(*)::int as n from ledger_lines');
  return rows[0]!.n;
}

describe('the database keeps the books', () => {
  it('refuses an entry whose debits and credits differ, in any currency, or with a single line', async () => {
    const before = await lineCount();
    expect(await inTransaction(entry([['paypal_usd', 'USD', '10.00'], ['customer_funds', 'USD', '-9.99']])))
      .toMatch(/does not balance in USD/);
    // Balanced in total but not per currency.
    expect(await inTransaction(entry([
      ['paypal_usd', 'USD', '10'], ['customer_funds', 'USD', '-10'], ['fx', 'XAF', '6100'], ['airtel_gabon', 'XAF', '-6000'],
    ]))).toMatch(/does not balance in XAF/);
    expect(await inTransaction(entry([['paypal_usd', 'USD', '10']]))).toMatch(/fewer than two lines/);
    expect(await inTransaction([`insert into ledger_entries (kind) values ('payment')`])).toMatch(/fewer than two lines/);
    expect(await lineCount()).toBe(before);
    // A balanced one goes in.
    expect(await inTransaction(entry([['paypal_usd', 'USD', '10.00'], ['customer_funds', 'USD', '-10.00']]))).toBeNull();
    expect(await lineCount()).toBe(before + 2);
  });

  it('checks every entry of a transaction at its commit, each of many, and refuses a line that unbalances an entry written before', async () => {
    const before = await lineCount();
    // Balanced entries, then one that is not, each written entry by entry, then all entries first and their lines after.
    const balanced = entry([['paypal_usd', 'USD', '10'], ['customer_funds', 'USD', '-10']]);
    expect(await inTransaction([...balanced, ...balanced, ...entry([['paypal_usd', 'USD', '7'], ['customer_funds', 'USD', '-6']]), ...balanced]))
      .toMatch(/does not balance in USD: debits and credits differ by 1/);
    expect(await inTransaction([
      `insert into ledger_entries (kind, reference) select 'payment', 'TEST-' || g from generate_series(1, 3) g`,
      `insert into ledger_lines (entry_id, account, currency, amount) select e.id, l.account, 'EUR', l.amount
        from (select id, row_number() over (order by id) as n from ledger_entries order by id desc limit 3) e,
        lateral (values ('paypal_eur', 5.00), ('customer_funds', case when e.n = 2 then -4.00 else -5.00 end)) as l(account, amount)`,
    ])).toMatch(/does not balance in EUR/);
    // An entry written in a savepoint rolled back, then one that is not balanced: the commit still checks it.
    const unbalanced = entry([['paypal_usd', 'USD', '7'], ['customer_funds', 'USD', '-6']]);
    expect(await inTransaction(['savepoint a', ...balanced, 'rollback to savepoint a', ...unbalanced])).toMatch(/does not balance in USD/);
    expect(await inTransaction(['savepoint a', ...unbalanced, 'release savepoint a', ...balanced])).toMatch(/does not balance in USD/);
    // The entries awaiting their check at the commit cannot be taken out of it.
    expect(await inTransaction([...unbalanced, 'delete from ledger_unchecked'])).toMatch(/refused/);
    expect(await lineCount()).toBe(before);
    // A line added later to a balanced entry of an earlier transaction.
    expect(await inTransaction(balanced)).toBeNull();
    expect(await inTransaction([`insert into ledger_lines (entry_id, account, currency, amount) values ((select max(id) from ledger_entries), 'fx', 'USD', 3)`]))
      .toMatch(/does not balance in USD/);
    expect(await lineCount()).toBe(before + 2);
  });

  it('refuses UPDATE and DELETE of entries and lines, even to the owner', async () => {
    expect(await inTransaction(entry([['paypal_eur', 'EUR', '5'], ['customer_funds', 'EUR', '-5']]))).toBeNull();
    for (const statement of [
      'update ledger_lines set amount = amount * 2', 'delete from ledger_lines',
      `update ledger_entries set reference = 'changed'`, 'delete from ledger_entries',
    ]) {
      expect(await inTransaction([statement]), statement).toMatch(/append-only/);
    }
  });

  it('refuses a line naming no entry, alone or among lines of entries that exist', async () => {
    const before = await lineCount();
    expect(await inTransaction([`insert into ledger_lines (entry_id, account, currency, amount) values ((select max(id) + 1000 from ledger_entries), 'paypal_eur', 'EUR', 5)`]))
      .toMatch(/no such entry/);
    expect(await inTransaction([
      `insert into ledger_entries (kind, reference) values ('payment', 'TEST')`,
      `insert into ledger_lines (entry_id, account, currency, amount) values (currval('ledger_entries_id_seq'), 'paypal_eur', 'EUR', 5),
        (currval('ledger_entries_id_seq'), 'customer_funds', 'EUR', -5), (currval('ledger_entries_id_seq') + 1000, 'fx', 'EUR', 1)`,
    ])).toMatch(/no such entry/);
    expect(await lineCount()).toBe(before);
  });

  it('checks an entry at its commit by reading its own lines, not the whole books, however many they hold', async () => {
    // The books written by one large transaction, their entries awaiting its commit's check sampled
    // meanwhile, as autovacuum may sample them during a bank statement's import: the planner then
    // expects a transaction to have thousands of entries to check.
    expect(await inTransaction([
      `insert into ledger_entries (kind, reference) select 'payment', 'BOOKS-' || g from generate_series(1, 10000) g`,
      `insert into ledger_lines (entry_id, account, currency, amount) select e.id, l.account, 'USD', l.amount
        from ledger_entries e, (values ('paypal_usd', 10.00), ('customer_funds', -10.00)) as l(account, amount) where e.reference like 'BOOKS-%'`,
      'analyze ledger_unchecked',
    ])).toBeNull();
    await t.database.pool.query('analyze ledger_lines');
    // The plans of the statements the commit runs, as PostgreSQL's auto_explain writes them to the
    // client; the plan a backend keeps using after its first checks (the generic one).
    const client = await t.database.pool.connect();
    const plans: string[] = [];
    const onNotice = (notice: { message?: string }) => { if (notice.message) plans.push(notice.message); };
    client.on('notice', onNotice);
    try {
      for (const setting of [`load 'auto_explain'`, 'set auto_explain.log_min_duration = 0', 'set auto_explain.log_nested_statements = on',
        'set client_min_messages = log', 'set plan_cache_mode = force_generic_plan', 'begin', ...entry([['paypal_usd', 'USD', '10'], ['customer_funds', 'USD', '-10']]), 'commit']) {
        await client.query(setting);
      }
    } finally {
      client.off('notice', onNotice);
      await client.query('reset all');
      client.release(true);
    }
    const check = plans.filter((plan) => plan.includes('ledger_unchecked') && plan.includes('ledger_lines'));
    expect(check).toHaveLength(1);
    // Every read of the lines is a lookup of one entry's, by the entry index.
    const reads = check[0]!.split('\n').flatMap((line, n, lines) => (/ on ledger_lines /.test(line) ? [`${line.trim()} ${lines[n + 1]!.trim()}`] : []));
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(read).toMatch(/^(->\s+)?Index Scan using ledger_lines_entry_idx on ledger_lines l .*Index Cond: \(entry_id = u\.entry_id\)$/);
  });
});

describe('the balances', () => {
  it('are the admin\'s alone', async () => {
    for (const url of ['/api/ledger/balances', `/api/ledger/entries?transfer_id=${admin.id}`]) {
      expect((await t.request({ method: 'GET', url, token: manager.token })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url, token: sender.token })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await t.request({ method: 'GET', url: '/api/ledger/entries?transfer_id=nope', token: admin.token })).statusCode).toBe(400);
  });

  it('sum to zero in every currency after 200 random operations, and equal the sum of the lines', async () => {
    // A seeded generator: the same sequence on every run, so a failure can be replayed.
    let seed = 20261122;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const transfers: { id: string; total: string; currency: string }[] = [];
    const staff = [manager, admin];
    const codes: Record<number, number> = {};
    for (let op = 0; op < 200; op += 1) {
      const choice = random();
      const token = pick(staff).token;
      let status: number;
      if (transfers.length === 0 || choice < 0.2) {
        const direction = pick(DIRECTION_IDS);
        const amount = direction.startsWith('XAF') ? String(3000 + Math.floor(random() * 50000))
          : direction.startsWith('RWF') ? String(5000 + Math.floor(random() * 50000)) : (5 + random() * 500).toFixed(2);
        const created = await createTransfer(t, sender.id, { direction, amount });
        transfers.push({ id: created.id, total: created.total, currency: created.currency });
        status = 201;
      } else {
        const tr = pick(transfers);
        const action = pick(['payment', 'payment-short', 'payout', 'refund', 'processing', 'completed', 'rejected', 'cancel'] as const);
        const res = action === 'payment' || action === 'payment-short'
          ? await t.request({ method: 'POST', url: `/api/transfer-requests/${tr.id}/payment`, token,
            payload: { amount: action === 'payment' ? tr.total : String(Math.max(1, Math.floor(Number(tr.total) / 2))), reference: `S-${op}` } })
          : action === 'payout' || action === 'refund'
            ? await t.request({ method: 'POST', url: `/api/transfer-requests/${tr.id}/${action}`, token, payload: { reference: `R-${op}` } })
            : action === 'cancel'
              ? await t.request({ method: 'POST', url: `/api/transfer-requests/${tr.id}/cancel`, token: sender.token })
              : await t.request({ method: 'PATCH', url: `/api/transfer-requests/${tr.id}`, token, payload: { status: action } });
        status = res.statusCode;
        expect([200, 409], `${action}: ${res.body}`).toContain(status);
      }
      codes[status] = (codes[status] ?? 0) + 1;
    }
    // The sequence moved money, and was refused sometimes: it tried both.
    expect(codes[200]).toBeGreaterThan(40);
    expect(codes[409]).toBeGreaterThan(10);

    const res = await t.request({ method: 'GET', url: '/api/ledger/balances', token: admin.token });
    expect(res.statusCode).toBe(200);
    const { balances, totals } = res.json().data as {
      balances: { account: string; currency: string; balance: string }[]; totals: { currency: string; sum: string }[];
    };
    expect(totals.length).toBeGreaterThan(1);
    for (const total of totals) expect(Number(total.sum), total.currency).toBe(0);
    const { rows } = await t.database.pool.query<{ account: string; currency: string; balance: string }>(
      'select account, currency, sum(amount)::numeric(24,2)::text as balance from ledger_lines group by account, currency');
    for (const r of rows) {
      const shown = balances.find((b) => b.account === r.account && b.currency === r.currency);
      expect(shown?.balance, `${r.account} ${r.currency}`).toBe(r.balance);
    }
    // Customer funds never hold what was paid out or refunded twice: every entry kind happens once per transfer.
    const twice = await t.database.db.execute(sql`select transfer_request_id, kind from ledger_entries where transfer_request_id is not null group by 1, 2 having count(*) > 1`);
    expect(twice.rows).toEqual([]);
  });
});
