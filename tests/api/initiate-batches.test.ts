import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { insertTransfer } from '@server/modules/transfers/initiation-statement.js';
import { createUser, type TestUser } from '../support/factories.js';
import type { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, type TestApp } from '../support/test-app.js';

// Initiations arriving together are written by one statement (transfers/initiation-statement.ts insertTransfer,
// lib/batches.ts): each sender must still get exactly their own transfer, its transaction, its
// first step and its e-mail, and one bad initiation must not fail the others.

let t: TestApp;
let smtp: SmtpListener;
let senders: TestUser[];

beforeAll(async () => {
  ({ t, smtp } = await createMailedTestApp());
  senders = await Promise.all(['Awa', 'Jean', 'Aline'].map((name) => createUser(t, { full_name: `${name} Sender` })));
});
afterAll(() => t.close());

function initiate(sender: TestUser, amount: string, recipient: string, key?: string) {
  return t.request({
    method: 'POST', url: '/api/payments/initiate', token: sender.token,
    headers: key ? { 'idempotency-key': key } : {},
    payload: {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount, currency: 'USD',
      destination_details: { recipient_name: recipient, recipient_phone: '+241 77 12 34 56' },
    },
  });
}

describe('a burst of initiations written together', () => {
  it('gives every sender their own transfer, transaction, first step and creation e-mail', async () => {
    const asked = senders.flatMap((sender, s) => Array.from({ length: 8 }, (_, i) => ({ sender, amount: `${100 + 10 * s + i}.50`, recipient: `Recipient ${s}-${i}` })));
    const answers = await Promise.all(asked.map((a) => initiate(a.sender, a.amount, a.recipient)));
    expect(answers.map((r) => r.statusCode)).toEqual(asked.map(() => 201));
    const data = answers.map((r) => r.json().data as { id: string; reference: string; amount: string; destination_details: { recipient_name: string } });
    data.forEach((d, i) => {
      expect(d.amount).toBe(asked[i]!.amount);
      expect(d.destination_details.recipient_name).toBe(asked[i]!.recipient);
    });
    expect(new Set(data.map((d) => d.id)).size).toBe(asked.length);

    const ids = data.map((d) => d.id);
    const { rows } = await t.database.pool.query<{ id: string; profile_id: string; amount: string; xmin: string }>(
      'select id, profile_id, amount::text, xmin::text from transfer_requests where id = any($1)', [ids]);
    rows.forEach((row) => {
      const i = ids.indexOf(row.id);
      expect(row.profile_id).toBe(asked[i]!.sender.id);
      expect(row.amount).toBe(asked[i]!.amount);
    });
    // Written together: fewer transactions than transfers (each row's xmin names the transaction that wrote it).
    expect(new Set(rows.map((r) => r.xmin)).size).toBeLessThan(asked.length);

    const txs = await t.database.db.select().from(transactions).where(inArray(transactions.transfer_request_id, ids));
    expect(txs).toHaveLength(asked.length);
    for (const tx of txs) {
      const i = ids.indexOf(tx.transfer_request_id);
      expect({ profile: tx.profile_id, amount: tx.amount, reference: (tx.metadata as { reference: string }).reference })
        .toEqual({ profile: asked[i]!.sender.id, amount: asked[i]!.amount, reference: data[i]!.reference });
    }
    const steps = await t.database.db.select().from(transferStatusHistory).where(inArray(transferStatusHistory.transfer_request_id, ids));
    expect(steps.map((s) => [s.transfer_request_id, s.to_status, s.actor_profile_id]).sort())
      .toEqual(ids.map((id, i) => [id, 'pending', asked[i]!.sender.id]).sort());

    await t.jobsDone();
    for (const [i, d] of data.entries()) {
      const mails = smtp.messages.filter((m) => m.raw.includes(d.reference));
      expect(mails.map((m) => m.to)).toEqual([[asked[i]!.sender.email]]);
    }
  });

  it('twins with one idempotency key in the same burst get one transfer; other senders are not held up', async () => {
    const [awa, jean] = senders as [TestUser, TestUser];
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => initiate(awa, '75.00', 'Twin Recipient', 'burst-key-1')),
      ...Array.from({ length: 5 }, (_, i) => initiate(jean, `8${i}.00`, `Other ${i}`)),
    ]);
    expect(answers.map((r) => r.statusCode).every((code) => code === 201 || code === 200)).toBe(true);
    const twinIds = new Set(answers.slice(0, 5).map((r) => r.json().data.id as string));
    expect(twinIds.size).toBe(1);
    const stored = await t.database.db.select().from(transferRequests).where(eq(transferRequests.idempotency_key, 'burst-key-1'));
    expect(stored.map((r) => r.id)).toEqual([...twinIds]);
    expect(new Set(answers.slice(5).map((r) => r.json().data.id)).size).toBe(5);
  });
});

describe('one bad initiation among others', () => {
  it('fails alone: the others written with it are stored', async () => {
    const [awa] = senders as [TestUser];
    const row = (profileId: string, reference: string) => ({
      request: {
        reference, profile_id: profileId, direction: 'USD_XAF', source_provider: 'paypal_usd', source_details: {},
        destination_provider: 'airtel_gabon', destination_details: { recipient_name: 'Jean Ndong' },
        amount: '50.00', currency: 'USD', fee: '3.00', total: '53.00', rate: '600', payout_amount: '30000', payout_currency: 'XAF',
        fee_tier_id: null, idempotency_key: null, idempotency_hash: null,
      },
      transaction: { direction: 'USD_XAF', amount: '50.00', destination_details: {}, metadata: { reference } },
      job: { kind: 'mail' as const, payload: { note: reference }, maxAttempts: 1 },
    });
    const refs = Array.from({ length: 6 }, (_, i) => `MT-BATCH${i}${randomUUID().slice(0, 4).toUpperCase()}`);
    // The fourth names no sender: its foreign key fails, as a batch of all six would.
    const results = await Promise.allSettled(refs.map((ref, i) => {
      const r = row(i === 3 ? randomUUID() : awa.id, ref);
      return insertTransfer(t.database.db, r.request, r.transaction, r.job, () => null);
    }));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const stored = await t.database.db.select({ reference: transferRequests.reference }).from(transferRequests).where(inArray(transferRequests.reference, refs));
    expect(stored.map((s) => s.reference).sort()).toEqual(refs.filter((_, i) => i !== 3).sort());
    // Each stored one's job too (not a mail the worker can send: tried once and parked, so it stays to be counted), none for the bad one.
    await t.jobsDone();
    const { rows } = await t.database.pool.query<{ note: string }>(
      `select payload->>'note' as note from graphile_worker._private_jobs where payload->>'note' = any($1)`, [refs]);
    expect(rows.map((r) => r.note).sort()).toEqual(refs.filter((_, i) => i !== 3).sort());
  });
});

describe('the staff search index on transfers', () => {
  it('merges its pending list every 256 kB, not PostgreSQL\'s default 4 MB (a 4 MB merge held a batch of initiations for up to 450 ms)', async () => {
    const { rows } = await t.database.pool.query<{ options: string[] | null }>(
      `select reloptions as options from pg_class where relname = 'transfer_requests_search_idx'`);
    expect(rows[0]?.options).toEqual(['gin_pending_list_limit=256']);
  });
});

describe('the indexes of what a new transfer does not have yet', () => {
  it('hold only the transfers that have a PayPal order, a capture or an idempotency key, and still answer lookups by them', async () => {
    const { rows } = await t.database.pool.query<{ name: string; partial: boolean }>(`select c.relname as name, i.indpred is not null as partial
      from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relname in ('transfer_requests_provider_txn_idx', 'transfer_requests_provider_order_idx', 'transfer_requests_idempotency_key') order by 1`);
    expect(rows).toEqual([
      { name: 'transfer_requests_idempotency_key', partial: true },
      { name: 'transfer_requests_provider_order_idx', partial: true },
      { name: 'transfer_requests_provider_txn_idx', partial: true },
    ]);
    const client = await t.database.pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const plan = async (where: string) => JSON.stringify((await client.query(`explain (format json) select id from transfer_requests where ${where}`)).rows);
      expect(await plan(`provider_order_id = 'ORDER-1'`)).toContain('transfer_requests_provider_order_idx');
      expect(await plan(`provider_txn_id = 'CAPTURE-1'`)).toContain('transfer_requests_provider_txn_idx');
      expect(await plan(`profile_id = '00000000-0000-0000-0000-000000000000' and idempotency_key = 'key-1'`)).toContain('transfer_requests_idempotency_key');
    } finally {
      await client.query('reset enable_seqscan');
      client.release();
    }
  });
});
