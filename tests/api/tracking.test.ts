import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferRequests } from '@server/db/schema.js';
import { createTransfer } from './admin-fixtures.js';
import { createUser, type TestUser } from '../support/factories.js';
import { useAppsSharingRedis } from '../support/redis-apps.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The recipient's tracking link (docs/rules/transfers.md#tracking-link): signed out, it shows the status, the expected delivery,
// the recipient's first name, the amount and, once completed, the payout reference; never the
// sender, never the full phone number. The sender revokes it (404 from then on) or makes a new one.

let t: TestApp;
let sender: TestUser;
let other: TestUser;
let manager: TestUser;
const SENDER = { full_name: 'Awa Mbadinga', email: 'awa.sender@example.test', phone: '+33612345678' };

beforeAll(async () => {
  t = await createTestApp();
  sender = await createUser(t, SENDER);
  other = await createUser(t);
  manager = await createUser(t, { role: 'manager' });
});
afterAll(async () => { await t.close(); });

const track = (token: string, ip = '192.0.2.10') => t.request({ method: 'GET', url: `/api/track/${token}`, headers: { 'x-forwarded-for': ip } });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

async function ownTrackingUrl(id: string): Promise<string | null> {
  const res = await t.request({ method: 'GET', url: '/api/transfer-requests', token: sender.token });
  expect(res.statusCode).toBe(200);
  return res.json().data.find((r: { id: string }) => r.id === id).tracking_url;
}

describe('the owner’s transfer JSON', () => {
  it('carries the tracking link on the public URL in the request list, the detail and the history', async () => {
    const row = await createTransfer(t, sender.id);
    const url = await ownTrackingUrl(row.id);
    expect(url).toMatch(/^http:\/\/localhost:3000\/t\/[A-Za-z0-9_-]{24}$/);
    expect(tokenOf(url!)).toBe(row.tracking_token);
    const detail = await t.request({ method: 'GET', url: `/api/transfer-requests/${row.id}`, token: sender.token });
    expect(detail.json().data.tracking_url).toBe(url);
    const history = (await t.request({ method: 'GET', url: '/api/transactions', token: sender.token })).json();
    expect(history.data.find((r: { transfer_request_id: string }) => r.transfer_request_id === row.id).tracking_url).toBe(url);
    expect(JSON.stringify(history)).not.toContain('tracking_token');
  });
});

describe('GET /api/track/{token}, signed out', () => {
  it('answers exactly what the tracking link may show: status, whether it is held, delivery, first name, masked phone, amount', async () => {
    const row = await createTransfer(t, sender.id, { recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    const res = await track(row.tracking_token!);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual([
      'delivery', 'late', 'on_hold', 'payout_amount', 'payout_currency', 'payout_reference', 'recipient_first_name', 'recipient_phone_masked', 'status',
    ]);
    expect(data).toMatchObject({
      status: 'pending', recipient_first_name: 'Marie', recipient_phone_masked: '••••••••456',
      payout_amount: row.payout_amount, payout_currency: 'XAF', payout_reference: null, late: false, on_hold: false,
    });
    // Unpaid, no arrival time is promised: the clock starts with the sender's payment.
    expect(data.delivery).toBeNull();
  });

  it('counts the expected delivery from the payment, not from the request', async () => {
    const created = new Date(Date.now() - 2 * 3600_000);
    const paidAt = new Date(Date.now() - 5 * 60_000);
    const row = await createTransfer(t, sender.id, { paid: true, created_at: created });
    await t.database.db.update(transferRequests).set({ payment_recorded_at: paidAt }).where(eq(transferRequests.id, row.id));
    const { data } = (await track(row.tracking_token!)).json();
    // USD → XAF takes 10-60 min (seeded corridor), counted from the payment: not late, though made 2 hours ago.
    expect(Date.parse(data.delivery.earliest) - paidAt.getTime()).toBe(10 * 60_000);
    expect(Date.parse(data.delivery.latest) - paidAt.getTime()).toBe(60 * 60_000);
    expect(data.late).toBe(false);
  });

  it('never carries the sender’s name, e-mail or phone, the recipient’s full number or last name', async () => {
    const row = await createTransfer(t, sender.id, { recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+241 77 12 34 56' } });
    const raw = (await track(row.tracking_token!)).body;
    for (const secret of [SENDER.email, SENDER.full_name, 'Awa', 'Mbadinga', SENDER.phone, '612345678', '77123456', '77 12 34 56', 'Nguema', row.reference, row.id, sender.id]) {
      expect(raw).not.toContain(secret);
    }
    expect(raw).toContain('••••••••456');
  });

  it('shows the payout reference once completed only, and no delivery window once closed', async () => {
    const sent = await createTransfer(t, sender.id, { status: 'processing', paid: true, paidOut: true });
    expect((await track(sent.tracking_token!)).json().data).toMatchObject({ status: 'processing', payout_reference: null });
    const done = await createTransfer(t, sender.id, { status: 'completed', paid: true, paidOut: true });
    expect((await track(done.tracking_token!)).json().data).toMatchObject({ status: 'completed', payout_reference: 'PAYOUT-1', delivery: null, late: false });
  });

  it('says late when an open transfer is past its latest expected delivery', async () => {
    const old = await createTransfer(t, sender.id, { paid: true, created_at: new Date(Date.now() - 3 * 3600_000) });
    expect((await track(old.tracking_token!)).json().data).toMatchObject({ status: 'pending', late: true });
    // Unpaid for as long, it is not late: nothing was promised before the payment.
    const unpaid = await createTransfer(t, sender.id, { created_at: new Date(Date.now() - 3 * 3600_000) });
    expect((await track(unpaid.tracking_token!)).json().data).toMatchObject({ status: 'pending', late: false, delivery: null });
  });

  it('answers an unknown or malformed token 404, in the error shape and the caller’s language', async () => {
    const unknown = await track('AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: expect.any(String), code: 'not_found' });
    const malformed = await track('nope');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual(unknown.json());
    const fr = await t.request({ method: 'GET', url: '/api/track/AAAAAAAAAAAAAAAAAAAAAAAA', headers: { 'accept-language': 'fr' } });
    expect(fr.json().error).not.toBe(unknown.json().error);
  });
});

describe('revoking and renewing the link', () => {
  it('the owner revokes (204): the old token answers 404 like an unknown one, and the JSON says null', async () => {
    const row = await createTransfer(t, sender.id);
    const res = await t.request({ method: 'DELETE', url: `/api/transfer-requests/${row.id}/tracking`, token: sender.token });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const gone = await track(row.tracking_token!);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual((await track('AAAAAAAAAAAAAAAAAAAAAAAA')).json());
    expect(await ownTrackingUrl(row.id)).toBeNull();
  });

  it('another sender, staff and a signed-out caller cannot revoke it: 404, 404, 401, and the link still works', async () => {
    const row = await createTransfer(t, sender.id);
    for (const user of [other, manager]) {
      expect((await t.request({ method: 'DELETE', url: `/api/transfer-requests/${row.id}/tracking`, token: user.token })).statusCode).toBe(404);
      expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${row.id}/tracking`, token: user.token })).statusCode).toBe(404);
    }
    expect((await t.request({ method: 'DELETE', url: `/api/transfer-requests/${row.id}/tracking` })).statusCode).toBe(401);
    expect((await t.request({ method: 'DELETE', url: '/api/transfer-requests/not-an-id/tracking', token: sender.token })).statusCode).toBe(404);
    expect((await track(row.tracking_token!)).statusCode).toBe(200);
  });

  it('the owner makes a new link (201): the new one works, the old one no longer does', async () => {
    const row = await createTransfer(t, sender.id);
    const res = await t.request({ method: 'POST', url: `/api/transfer-requests/${row.id}/tracking`, token: sender.token });
    expect(res.statusCode).toBe(201);
    const { tracking_url } = res.json().data;
    expect(tracking_url).toMatch(/^http:\/\/localhost:3000\/t\/[A-Za-z0-9_-]{24}$/);
    expect(await ownTrackingUrl(row.id)).toBe(tracking_url);
    expect((await track(tokenOf(tracking_url))).statusCode).toBe(200);
    expect((await track(row.tracking_token!)).statusCode).toBe(404);
  });
});

describe('rate limit', () => {
  // 60 a minute, as docs/rules/transfers.md#tracking-link says.
  it('answers 60 a minute per address, then 429; another address goes on', async () => {
    const row = await createTransfer(t, sender.id);
    for (let i = 0; i < 60; i += 1) expect((await track(row.tracking_token!, '203.0.113.77')).statusCode).toBe(200);
    const refused = await track(row.tracking_token!, '203.0.113.77');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
    expect((await track(row.tracking_token!, '203.0.113.78')).statusCode).toBe(200);
  });
});

describe('rate limit with REDIS_URL', () => {
  const shared = useAppsSharingRedis();

  it('refuses on one process what the address used up on the other', async () => {
    const owner = await createUser(shared.a);
    const row = await createTransfer(shared.a, owner.id);
    const trackOn = (app: TestApp) => app.request({ method: 'GET', url: `/api/track/${row.tracking_token}`, headers: { 'x-forwarded-for': '198.51.100.77' } });
    for (let i = 0; i < 60; i += 1) expect((await trackOn(shared.a)).statusCode).toBe(200);
    expect((await trackOn(shared.b)).statusCode).toBe(429);
  });
});
