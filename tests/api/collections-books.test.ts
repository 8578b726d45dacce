import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Currency } from '@core/money.js';
import { parseSignedMinor } from '@core/reconciliation.js';
import { connect } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { collectionAttempts } from '@server/db/schema.js';
import { enquireCollection } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { databaseBeforeMigration } from '../support/migrated-before.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Money received twice is in the books (docs/rules/money-states.md#ledger): a collection Airtel
// confirmed for a transfer staff had already recorded paid lands in the Airtel account and is owed
// back to the sender (refunds owed) until staff record the refund they made; the books balance
// throughout. Against the loopback Airtel peer.

let t: TestApp;
let airtel: AirtelPeer;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  t = await createTestApp({ env: airtel.env() });
  [admin, sender, staff] = await Promise.all([createUser(t, { role: 'admin' }), createUser(t, { full_name: 'Marie Nguema' }), createUser(t, { role: 'manager' })]);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
  expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await airtel?.stop();
});

const XAF: Currency = 'XAF';
const minor = (v: string | undefined) => parseSignedMinor(v ?? '0', XAF)!;
const get = (url: string) => t.request({ method: 'GET', url, token: admin.token });
const post = (path: string, payload: object) => t.request({ method: 'POST', url: path, token: staff.token, payload });

type Entry = { kind: string; reference: string | null; actor_profile_id: string | null; lines: { account: string; currency: string; amount: string }[] };

/** What the admin sees: the XAF accounts' balances (debit positive), whether every currency sums to zero, and the money totals. */
async function books() {
  const { balances, totals } = (await get('/api/ledger/balances')).json().data as {
    balances: { account: string; currency: string; balance: string }[]; totals: { currency: string; sum: string }[];
  };
  const money = ((await get('/api/admin/stats')).json().data.money as { currency: string; received: string; refunds_owed: string }[])
    .find((m) => m.currency === XAF);
  const balance = (account: string) => minor(balances.find((b) => b.account === account && b.currency === XAF)?.balance);
  return {
    balanced: totals.every((s) => minor(s.sum) === 0),
    airtel: balance('airtel_gabon'), refundsPayable: balance('refunds_payable'),
    received: minor(money?.received), owed: minor(money?.refunds_owed),
  };
}
const entries = async (transferId: string) => (await get(`/api/ledger/entries?transfer_id=${transferId}`)).json().data as Entry[];

/** Marie asks on her phone and pays; meanwhile she also paid by hand and staff recorded it; then Airtel confirms. */
async function paidTwice() {
  const created = await createTransfer(t, sender.id, {
    direction: 'XAF_USD', amount: '50000', recipient: { recipient_name: 'John Smith', recipient_email: 'john@example.test' },
  });
  expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/collect`, token: sender.token, payload: { msisdn: '+24177123456' } })).statusCode).toBe(202);
  await expect.poll(async () => (await t.database.pool.query(`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'collection_send'`)).rows[0].n, { timeout: 20_000 }).toBe(0);
  const [sent] = await t.database.db.select().from(collectionAttempts).where(eq(collectionAttempts.transfer_id, created.id));
  expect((await post(`/api/transfer-requests/${created.id}/payment`, { amount: created.total, reference: 'MANUAL-42' })).statusCode).toBe(200);
  airtel.approve(sent!.reference);
  await enquireCollection({ config: t.config, db: t.database.db }, sent!.id);
  const [settled] = await t.database.db.select().from(collectionAttempts).where(eq(collectionAttempts.id, sent!.id));
  expect(settled).toMatchObject({ state: 'succeeded', needs_attention_at: expect.any(Date), operator_id: expect.stringMatching(/^MP\d+$/) });
  return { created, attempt: settled! };
}

describe('money received twice, in the books', () => {
  it('is owed back until staff record its refund; the books balance throughout; a second refund posts nothing', async () => {
    const before = await books();
    const { created, attempt } = await paidTwice();
    const total = minor(created.total);

    // Both payments are in the Airtel account; the second is owed back; "received" counts the transfer's payment once.
    const twice = await books();
    expect(twice.balanced).toBe(true);
    expect(twice.airtel - before.airtel).toBe(2 * total);
    expect(twice.owed - before.owed).toBe(total);
    expect(twice.refundsPayable - before.refundsPayable).toBe(-total);
    expect(twice.received - before.received).toBe(total);
    const paid = await entries(created.id);
    expect(paid.map((e) => [e.kind, e.reference])).toEqual([['payment', 'MANUAL-42'], ['duplicate_payment', attempt.operator_id]]);
    expect(paid[1]!.lines.map((l) => [l.account, l.currency, minor(l.amount)])).toEqual([
      ['airtel_gabon', 'XAF', total], ['refunds_payable', 'XAF', -total],
    ]);

    const refunded = await post(`/api/collection-attempts/${attempt.id}/refund`, { reference: 'MP-REFUND-77' });
    expect(refunded.statusCode).toBe(200);
    const after = await books();
    expect(after.balanced).toBe(true);
    expect(after.owed).toBe(before.owed);
    expect(after.refundsPayable).toBe(before.refundsPayable);
    expect(after.airtel - before.airtel).toBe(total);
    const both = await entries(created.id);
    expect(both.map((e) => [e.kind, e.reference])).toEqual([
      ['payment', 'MANUAL-42'], ['duplicate_payment', attempt.operator_id], ['duplicate_refund', 'MP-REFUND-77'],
    ]);
    expect(both[2]!.actor_profile_id).toBe(staff.id);
    expect(both[2]!.lines.map((l) => [l.account, minor(l.amount)])).toEqual([['refunds_payable', total], ['airtel_gabon', -total]]);

    // Recorded again: refused, and the books do not move.
    const again = await post(`/api/collection-attempts/${attempt.id}/refund`, { reference: 'MP-REFUND-78' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('collection_refunded');
    expect(await entries(created.id)).toHaveLength(3);
    expect(await books()).toEqual(after);
  });

  it('the journal refuses a duplicate refund that gives back no duplicate payment of its number, or one already given back', async () => {
    const { created } = await paidTwice();
    const refundOf = (sequence: number) => t.database.db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ id: number }>(sql`insert into ledger_entries (transfer_request_id, kind, reference, sequence)
        values (${created.id}, 'duplicate_refund', 'BY-HAND', ${sequence}) returning id`);
      await tx.execute(sql`insert into ledger_lines (entry_id, account, currency, amount)
        values (${rows[0]!.id}, 'refunds_payable', 'XAF', ${created.total}), (${rows[0]!.id}, 'airtel_gabon', 'XAF', ${`-${created.total}`})`);
    });
    const refused = (why: RegExp) => ({ cause: expect.objectContaining({ message: expect.stringMatching(why) }) });
    await expect(refundOf(2)).rejects.toMatchObject(refused(/gives back no duplicate_payment 2/));
    expect((await entries(created.id)).map((e) => e.kind)).toEqual(['payment', 'duplicate_payment']);
    // Its own number is taken once.
    await refundOf(1);
    await expect(refundOf(1)).rejects.toMatchObject(refused(/ledger_entries_transfer_kind_seq_key/));
    expect((await entries(created.id)).map((e) => e.kind)).toEqual(['payment', 'duplicate_payment', 'duplicate_refund']);
  });
});

describe('money received twice before it was booked', () => {
  it('is booked by the migration: owed back when not refunded yet, given back when staff recorded its refund; a collection received once is not', async () => {
    // A database at the schema before the duplicate entries, holding three Gabon transfers paid by collection.
    const { url, client } = await databaseBeforeMigration('gives back no duplicate_payment');
    try {
      const { rows: [profile] } = await client.query<{ id: string }>(`insert into profiles (email, full_name) values ('old@example.test', 'Old Sender') returning id`);
      const { rows: transfers } = await client.query<{ id: string; reference: string }>(`
        insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, amount, currency,
          fee, total, rate, payout_amount, payout_currency, status)
        select 'OLD' || g, $1, 'XAF_USD', 'airtel_gabon', 'paypal_usd', 50000, 'XAF', 1500, 51500, 0.0016, 80, 'USD', 'processing'
        from generate_series(1, 3) g order by g returning id, reference`, [profile!.id]);
      const [owed, givenBack, once] = transfers;
      await client.query(`
        insert into collection_attempts (transfer_id, seq, rail, reference, state, operator_id, amount, currency, msisdn, settled_at, needs_attention_at,
          refund_reference, refunded_by, refunded_at)
        values ($1, 1, 'airtel_gabon', 'ref-owed', 'succeeded', 'MP1', 51500, 'XAF', '+24177123456', now(), now(), null, null, null),
          ($2, 1, 'airtel_gabon', 'ref-back', 'succeeded', 'MP2', 51500, 'XAF', '+24177123456', now(), now(), 'MP-REFUND-9', $4, now()),
          ($3, 1, 'airtel_gabon', 'ref-once', 'succeeded', 'MP3', 51500, 'XAF', '+24177123456', now(), null, null, null, null)`,
      [owed!.id, givenBack!.id, once!.id, profile!.id]);
    } finally {
      await client.end();
    }

    const database = connect(url, 2);
    try {
      await runMigrations(database);
      const { rows: journal } = await database.pool.query<{ reference: string; kind: string; ref: string | null; sequence: number; lines: string }>(`
        select t.reference, e.kind, e.reference as ref, e.sequence,
          string_agg(l.account || ' ' || l.amount::text, ', ' order by l.id) as lines
        from ledger_entries e join transfer_requests t on t.id = e.transfer_request_id join ledger_lines l on l.entry_id = e.id
        group by e.id, t.reference order by t.reference, e.id`);
      expect(journal).toEqual([
        { reference: 'OLD1', kind: 'duplicate_payment', ref: 'MP1', sequence: 1, lines: 'airtel_gabon 51500.00, refunds_payable -51500.00' },
        { reference: 'OLD2', kind: 'duplicate_payment', ref: 'MP2', sequence: 1, lines: 'airtel_gabon 51500.00, refunds_payable -51500.00' },
        { reference: 'OLD2', kind: 'duplicate_refund', ref: 'MP-REFUND-9', sequence: 1, lines: 'refunds_payable 51500.00, airtel_gabon -51500.00' },
      ]);
      const { rows: balances } = await database.pool.query<{ account: string; balance: string }>(
        `select account, sum(debits - credits)::text as balance from ledger_balances where currency = 'XAF' group by account order by account`);
      expect(balances).toEqual([{ account: 'airtel_gabon', balance: '51500.00' }, { account: 'refunds_payable', balance: '-51500.00' }]);
    } finally {
      await database.close();
    }
  });
});
