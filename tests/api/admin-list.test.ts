import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let manager: TestUser;
let admin: TestUser;
const ids: Record<string, string> = {};
const day = (d: string, time = '10:00:00') => new Date(`${d}T${time}Z`);

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob, manager, admin] = await Promise.all([
    createUser(t, { full_name: 'Alice Mbadinga', email: 'alice@example.test' }),
    createUser(t, { full_name: null, email: 'bob@example.test' }),
    createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
  ids.a1 = (await createTransfer(t, alice.id, { created_at: day('2025-03-01'), reference: 'TR-AAA111' })).id;
  ids.a2 = (await createTransfer(t, alice.id, { direction: 'USD_RWF', status: 'processing', created_at: day('2025-03-02'),
    recipient: { recipient_name: 'Jean Habimana', recipient_phone: '+250788000111' } })).id;
  ids.b1 = (await createTransfer(t, bob.id, { direction: 'XAF_USD', amount: '60000', status: 'completed', created_at: day('2025-03-03'),
    recipient: { recipient_name: 'Bob "The" Builder, Jr', recipient_email: 'bob.paypal@example.test' }, provider_txn_id: 'CAPTURE-42' })).id;
  ids.b2 = (await createTransfer(t, bob.id, { status: 'rejected', created_at: day('2025-03-04'),
    recipient: { recipient_name: '=HYPERLINK("http://evil")', recipient_phone: '+24177000000' } })).id;
  ids.b3 = (await createTransfer(t, bob.id, { created_at: day('2025-03-04', '23:59:59') })).id;
});
afterAll(async () => { await t.close(); });

const list = async (query = '', token = manager.token) => {
  const res = await t.request({ method: 'GET', url: `/api/transfer-requests${query}`, token });
  expect(res.statusCode).toBe(200);
  return res.json() as { data: { id: string; status: string; requester: { full_name: string | null; email: string; profile_id: string } }[]; next_cursor: string | null };
};
const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

describe('GET /api/transfer-requests for staff', () => {
  it('lists every sender\'s requests newest first, with the requester', async () => {
    const body = await list();
    expect(idsOf(body)).toEqual([ids.b3, ids.b2, ids.b1, ids.a2, ids.a1]);
    expect(body.data[4]!.requester).toEqual({ full_name: 'Alice Mbadinga', email: 'alice@example.test', profile_id: alice.id });
    expect(body.data[0]!.requester).toEqual({ full_name: null, email: 'bob@example.test', profile_id: bob.id });
    expect(body.next_cursor).toBeNull();
  });

  it('a sender still sees only their own', async () => {
    const res = await t.request({ method: 'GET', url: '/api/transfer-requests', token: alice.token });
    expect(res.json().data.map((r: { id: string }) => r.id).sort()).toEqual([ids.a1, ids.a2].sort());
  });

  it('filters by status, corridor and UTC day range', async () => {
    expect(idsOf(await list('?status=pending'))).toEqual([ids.b3, ids.a1]);
    expect(idsOf(await list('?direction=USD_RWF'))).toEqual([ids.a2]);
    expect(idsOf(await list('?from=2025-03-02&to=2025-03-03'))).toEqual([ids.b1, ids.a2]);
    expect(idsOf(await list('?from=2025-03-04'))).toEqual([ids.b3, ids.b2]);
    expect(idsOf(await list('?status=pending&direction=USD_XAF&to=2025-03-03'))).toEqual([ids.a1]);
  });

  it('searches by id, reference, sender, recipient and provider reference', async () => {
    expect(idsOf(await list(`?q=${ids.b1}`))).toEqual([ids.b1]);
    expect(idsOf(await list('?q=tr-aaa'))).toEqual([ids.a1]);
    expect(idsOf(await list('?q=mbadinga'))).toEqual([ids.a2, ids.a1]);
    expect(idsOf(await list('?q=bob%40example'))).toEqual([ids.b3, ids.b2, ids.b1]);
    expect(idsOf(await list('?q=habimana'))).toEqual([ids.a2]);
    expect(idsOf(await list('?q=250788000111'))).toEqual([ids.a2]);
    expect(idsOf(await list('?q=bob.paypal'))).toEqual([ids.b1]);
    expect(idsOf(await list('?q=CAPTURE-42'))).toEqual([ids.b1]);
    expect(idsOf(await list('?q=%25'))).toEqual([]);
  });

  it('pages with a cursor, newest or oldest first, without gaps or repeats', async () => {
    for (const [sort, expected] of [['newest', [ids.b3, ids.b2, ids.b1, ids.a2, ids.a1]], ['oldest', [ids.a1, ids.a2, ids.b1, ids.b2, ids.b3]]] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const body = await list(`?sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(body.data.length).toBeLessThanOrEqual(2);
        seen.push(...idsOf(body));
        cursor = body.next_cursor;
      } while (cursor);
      expect(seen).toEqual(expected);
    }
  });

  it('refuses bad filters with a clear 400', async () => {
    for (const [query, message] of [
      ['?status=approved', 'Choose a valid status.'],
      ['?from=03/01/2025', 'Enter a date as YYYY-MM-DD.'],
      ['?to=2025-02-31', 'Enter a date as YYYY-MM-DD.'],
      ['?limit=500', 'The page size must be between 1 and 100.'],
      ['?cursor=garbage', 'The page cursor is invalid.'],
      ['?sort=sideways', 'Choose newest or oldest first.'],
    ]) {
      const res = await t.request({ method: 'GET', url: `/api/transfer-requests${query}`, token: manager.token });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });
});

describe('GET /api/transfer-requests/export.csv', () => {
  const exportCsv = async (query = '') => {
    const res = await t.request({ method: 'GET', url: `/api/transfer-requests/export.csv${query}`, token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="transfer-requests-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.body.split('\r\n').filter(Boolean);
  };

  it('exports the filtered list with the accounting columns', async () => {
    const lines = await exportCsv('?status=completed');
    expect(lines[0]).toBe('id,reference,created_at,updated_at,status,payment_status,payment_amount,payment_reference,payment_flagged,payout_status,direction,source_provider,destination_provider,amount,currency,fee,total,rate,payout_amount,payout_currency,sender_name,sender_email,recipient_name,recipient_phone,recipient_email,recipient_iban,provider_txn_id,payout_reference,refund_reference');
    expect(lines).toHaveLength(2);
    const row = lines[1]!;
    expect(row.startsWith(`${ids.b1},`)).toBe(true);
    expect(row).toContain(',completed,awaiting,,,no,not_sent,XAF_USD,airtel_gabon,paypal_usd,60000.00,XAF,2520.00,62520.00,0.00163934426229508197,98.36,USD,');
    expect(row).toContain(',,bob@example.test,"Bob ""The"" Builder, Jr",,bob.paypal@example.test,,CAPTURE-42,');
  });

  it('exports every row, oldest first on request, and defuses spreadsheet formulas', async () => {
    const lines = await exportCsv('?sort=oldest');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([ids.a1, ids.a2, ids.b1, ids.b2, ids.b3]);
    expect(lines.find((l) => l.startsWith(ids.b2!))).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });
});

describe('stats and volume', () => {
  it('counts requests by status', async () => {
    const { data } = (await t.request({ method: 'GET', url: '/api/admin/stats', token: manager.token })).json();
    expect(data.requests).toEqual({ pending: 2, processing: 1, completed: 1, rejected: 1, cancelled: 0 });
  });

  it('sums daily volume and fees per corridor over the last days, leaving out rejected and cancelled', async () => {
    const today = new Date();
    await createTransfer(t, alice.id, { amount: '100', created_at: today });
    await createTransfer(t, alice.id, { amount: '200', created_at: today });
    await createTransfer(t, alice.id, { amount: '300', status: 'rejected', created_at: today });
    await createTransfer(t, bob.id, { direction: 'XAF_USD', amount: '10000', created_at: today });
    const res = await t.request({ method: 'GET', url: '/api/admin/volume?days=30', token: admin.token });
    const { data } = res.json();
    const key = today.toISOString().slice(0, 10);
    expect(data).toMatchObject({ days: 30, to: key });
    expect(data.points).toEqual([
      { day: key, direction: 'USD_XAF', currency: 'USD', count: 2, amount: '300.00', fees: '12.30' },
      { day: key, direction: 'XAF_USD', currency: 'XAF', count: 1, amount: '10000.00', fees: '1800.00' },
    ]);
    expect((await t.request({ method: 'GET', url: '/api/admin/volume?days=0', token: admin.token })).statusCode).toBe(400);
  });
});
