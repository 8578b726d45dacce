import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

let t: TestApp;
let user: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [user, manager, admin] = await Promise.all([
    createUser(t), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
  // The seeded top tiers are unbounded; bound them so the tiers created below do not overlap.
  const tiers = (await t.request({ method: 'GET', url: '/api/fees' })).json().data as { id: string; direction: string; percentage: string; min_amount: string; max_amount: string | null }[];
  for (const tier of tiers.filter((x) => ['USD_XAF', 'EUR_XAF', 'EUR_RWF'].includes(x.direction) && x.max_amount === null)) {
    const res = await t.request({ method: 'PATCH', url: `/api/fees/${tier.id}`, token: admin.token,
      payload: { max_amount: '5000' } });
    expect(res.statusCode).toBe(200);
  }
});
afterAll(async () => { await t.close(); });

type Call = { method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; url: string; payload?: object };

/** Each back-office endpoint, built fresh for each caller so every call is legal for an allowed role. */
const staffEndpoints: Record<string, () => Promise<Call>> = {
  'PATCH /api/transfer-requests/:id': async () => {
    const transfer = await createTransfer(t, user.id);
    return { method: 'PATCH', url: `/api/transfer-requests/${transfer.id}`, payload: { status: 'processing' } };
  },
  'GET /api/transfer-requests/export.csv': async () => ({ method: 'GET', url: '/api/transfer-requests/export.csv' }),
  'GET /api/admin/stats': async () => ({ method: 'GET', url: '/api/admin/stats' }),
  'GET /api/screening/alerts': async () => ({ method: 'GET', url: '/api/screening/alerts?status=open' }),
  'POST /api/screening/alerts/:id/decision': async () => ({
    method: 'POST', url: `/api/screening/alerts/${await openAlert()}/decision`, payload: { decision: 'false_positive', note: 'Another person' },
  }),
  'GET /api/screening/rescreen': async () => ({ method: 'GET', url: '/api/screening/rescreen' }),
  'GET /api/monitoring/cases': async () => ({ method: 'GET', url: '/api/monitoring/cases?status=open' }),
  'GET /api/kyc/reviews': async () => ({ method: 'GET', url: '/api/kyc/reviews?status=open' }),
  'GET /api/kyc/reviews/:id': async () => ({ method: 'GET', url: `/api/kyc/reviews/${await openReview()}` }),
  'POST /api/kyc/reviews/:id/decision': async () => ({
    method: 'POST', url: `/api/kyc/reviews/${await openReview()}/decision`, payload: { decision: 'reject', note: 'The photo is not of a document.' },
  }),
  'POST /api/kyc/documents/:id/mrz': async () => ({
    method: 'POST', url: `/api/kyc/documents/${await passportDocument()}/mrz`,
    payload: { lines: ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'] },
  }),
};

/** A sender's passport photo (its bytes do not matter to who may type its zone). */
async function passportDocument(): Promise<string> {
  const sender = await createUser(t);
  const { rows } = await t.database.pool.query(
    `insert into kyc_documents (id, profile_id, kind, content_type, size, sealed) values (gen_random_uuid(), $1, 'passport', 'image/jpeg', 1, '\\x00') returning id`, [sender.id]);
  return (rows[0] as { id: string }).id;
}

/** An open identity review of a new sender (its documents do not matter to who may read or decide it). */
async function openReview(): Promise<string> {
  const sender = await createUser(t, { kyc_level: 0 });
  const { rows } = await t.database.pool.query(`insert into kyc_reviews (profile_id, level, document_ids) values ($1, 2, '{}') returning id`, [sender.id]);
  return (rows[0] as { id: string }).id;
}

/** An open screening alert about a sender (what it matched does not matter to who may decide it). */
async function openAlert(): Promise<string> {
  const { rows } = await t.database.pool.query(`insert into screening_alerts (subject, subject_key, trigger, profile_id, screened, source, list_id, entry_id, fingerprint, score, explanation)
    values ('sender', 'sender:' || $1::text, 'profile', $1::uuid, '{"name":"Test","birth_date":null,"country":null}', 'ofac_sdn', '1', 1, 'f', 0.9, '{"listed_name":"TEST"}') returning id`, [user.id]);
  return (rows[0] as { id: string }).id;
}

let nextMin = 10_000;
const adminEndpoints: Record<string, () => Promise<Call>> = {
  'GET /api/admin/volume': async () => ({ method: 'GET', url: '/api/admin/volume?days=30' }),
  'GET /api/audit': async () => ({ method: 'GET', url: '/api/audit?target_type=rate' }),
  'POST /api/fees': async () => {
    nextMin += 10;
    return { method: 'POST', url: '/api/fees', payload: { direction: 'USD_XAF', percentage: '0.01', min_amount: String(nextMin), max_amount: String(nextMin + 5) } };
  },
  'PATCH /api/fees/:id': async () => {
    nextMin += 10;
    const created = await t.request({ method: 'POST', url: '/api/fees', token: admin.token,
      payload: { direction: 'EUR_XAF', percentage: '0.01', min_amount: String(nextMin), max_amount: String(nextMin + 5) } });
    return { method: 'PATCH', url: `/api/fees/${created.json().data.id}`,
      payload: { percentage: '0.015' } };
  },
  'DELETE /api/fees/:id': async () => {
    nextMin += 10;
    const created = await t.request({ method: 'POST', url: '/api/fees', token: admin.token,
      payload: { direction: 'EUR_RWF', percentage: '0.01', min_amount: String(nextMin), max_amount: String(nextMin + 5) } });
    return { method: 'DELETE', url: `/api/fees/${created.json().data.id}` };
  },
  'PATCH /api/rates/:key': async () => ({ method: 'PATCH', url: '/api/rates/USD_XAF', payload: { value: '610' } }),
  'GET /api/rates/sources': async () => ({ method: 'GET', url: '/api/rates/sources' }),
  'PUT /api/rates/max-age': async () => ({ method: 'PUT', url: '/api/rates/max-age', payload: { hours: 36 } }),
  'GET /api/screening/settings': async () => ({ method: 'GET', url: '/api/screening/settings' }),
  'PUT /api/screening/settings': async () => ({ method: 'PUT', url: '/api/screening/settings', payload: { hold_threshold: 0.85 } }),
  'GET /api/monitoring/rules': async () => ({ method: 'GET', url: '/api/monitoring/rules' }),
  'PUT /api/monitoring/rules/:rule': async () => ({ method: 'PUT', url: '/api/monitoring/rules/velocity', payload: { enabled: true } }),
};

async function call(endpoint: () => Promise<Call>, token?: string) {
  return t.request({ ...(await endpoint()), ...(token ? { token } : {}) });
}

describe('back-office role matrix (server-side, whatever the screen shows)', () => {
  for (const [name, endpoint] of Object.entries(staffEndpoints)) {
    it(`${name}: signed out 401, user 403, manager and admin allowed`, async () => {
      const out = await call(endpoint);
      expect(out.statusCode).toBe(401);
      expect(out.json().error).toBe('Please sign in to continue.');
      const asUser = await call(endpoint, user.token);
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json().error).toBe('You are not authorized to perform this action.');
      expect((await call(endpoint, manager.token)).statusCode).toBe(200);
      expect((await call(endpoint, admin.token)).statusCode).toBe(200);
    });
  }

  for (const [name, endpoint] of Object.entries(adminEndpoints)) {
    it(`${name}: signed out 401, user and manager 403, admin allowed`, async () => {
      expect((await call(endpoint)).statusCode).toBe(401);
      expect((await call(endpoint, user.token)).statusCode).toBe(403);
      const asManager = await call(endpoint, manager.token);
      expect(asManager.statusCode).toBe(403);
      expect(asManager.json().error).toBe('You are not authorized to perform this action.');
      expect([200, 201]).toContain((await call(endpoint, admin.token)).statusCode);
    });
  }

  it('refuses before looking at the body: a user sending garbage still gets 403, not 400', async () => {
    const res = await t.request({ method: 'POST', url: '/api/fees', token: user.token, payload: { direction: 'nope' } });
    expect(res.statusCode).toBe(403);
  });

  it('shows user and fee-tier counts to the admin only', async () => {
    const asManager = (await t.request({ method: 'GET', url: '/api/admin/stats', token: manager.token })).json().data;
    expect(Object.keys(asManager)).toEqual(['requests']);
    expect(Object.keys(asManager.requests).sort()).toEqual(['cancelled', 'completed', 'pending', 'processing', 'rejected']);
    const asAdmin = (await t.request({ method: 'GET', url: '/api/admin/stats', token: admin.token })).json().data;
    expect(asAdmin.users).toBeGreaterThanOrEqual(3);
    expect(asAdmin.fee_tiers).toBeGreaterThanOrEqual(36);
  });
});
