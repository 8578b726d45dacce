import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let sender: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, admin] = await Promise.all([createUser(t), createUser(t, { role: 'admin', full_name: 'Ada Admin' })]);
});
afterAll(async () => { await t.close(); });

interface Tier { id: string; direction: string; percentage: string; min_amount: string; max_amount: string | null; min_fee: string | null; updated_at: string }
const tiersOf = async (direction: string): Promise<Tier[]> =>
  ((await t.request({ method: 'GET', url: '/api/fees' })).json().data as Tier[]).filter((x) => x.direction === direction);
const post = (payload: object) => t.request({ method: 'POST', url: '/api/fees', token: admin.token, payload });
const patchTier = (id: string, payload: object) => t.request({ method: 'PATCH', url: `/api/fees/${id}`, token: admin.token, payload });
const quote = async (direction: string, amount: string) =>
  (await t.request({ method: 'POST', url: '/api/quotes', payload: { direction, amount } })).json().data;

describe('fee tiers: validated, new values for new transfers only; percentage is a fraction', () => {
  it('refuses a tier overlapping the direction\'s others', async () => {
    const res = await post({ direction: 'USD_XAF', percentage: '0.02', min_amount: '50', max_amount: '150' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Fee tiers of a direction must not overlap.');
    expect(await tiersOf('USD_XAF')).toHaveLength(3);
  });

  it('refuses a fraction of 0 or 1 and more (a percent such as 4.5 too), and min ≥ max, naming the field', async () => {
    for (const [payload, field, message] of [
      [{ percentage: '0' }, 'percentage', 'The fee percentage must be greater than 0 and less than 100.'],
      [{ percentage: '1' }, 'percentage', 'The fee percentage must be greater than 0 and less than 100.'],
      [{ percentage: '4.5' }, 'percentage', 'The fee percentage must be greater than 0 and less than 100.'],
      [{ percentage: 'abc' }, 'percentage', 'The fee percentage must be greater than 0 and less than 100.'],
      [{ min_amount: '900', max_amount: '800' }, 'max_amount', 'The minimum amount must be less than the maximum amount.'],
    ] as const) {
      const base: Record<string, string> = { direction: 'RWF_EUR', percentage: '0.02', min_amount: '2000000', max_amount: '3000000' };
      const res = await post({ ...base, ...payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
  });

  it('creates, edits and deletes a tier, each step in the audit log with before and after', async () => {
    const [top] = (await tiersOf('EUR_USD')).filter((x) => x.max_amount === null);
    // Bounded at the corridor's maximum (2,000), the tiers still cover the corridor.
    expect((await patchTier(top!.id, { max_amount: '2000' })).statusCode).toBe(200);
    const created = await post({ direction: 'EUR_USD', percentage: '0.019', min_amount: '2000', max_amount: null });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ direction: 'EUR_USD', percentage: '0.019000', min_amount: '2000.00', max_amount: null });
    const id = created.json().data.id as string;
    expect((await patchTier(id, { percentage: '0.018' })).json().data).toMatchObject({ percentage: '0.018000', min_amount: '2000.00', max_amount: null });
    expect((await t.request({ method: 'DELETE', url: `/api/fees/${id}`, token: admin.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/fees/${id}`, token: admin.token })).statusCode).toBe(404);

    const audit = (await t.request({ method: 'GET', url: `/api/audit?target_type=fee_tier&target_id=${id}`, token: admin.token })).json();
    expect(audit.data.map((a: { action: string }) => a.action)).toEqual(['fee_tier.delete', 'fee_tier.update', 'fee_tier.create']);
    const [deleted, updated, createdEntry] = audit.data;
    expect(createdEntry).toMatchObject({ before: null, after: { percentage: '0.019000' }, actor: { profile_id: admin.id, full_name: 'Ada Admin' } });
    expect(updated).toMatchObject({ before: { percentage: '0.019000' }, after: { percentage: '0.018000' } });
    expect(deleted).toMatchObject({ before: { percentage: '0.018000' }, after: null });
  });

  it('an edit changes only the fields sent, and the tier they make is checked like a new one', async () => {
    const [low, middle] = await tiersOf('RWF_USD');
    const edited = await patchTier(middle!.id, { min_fee: '2000' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toEqual({
      ...middle, min_fee: '2000.00', updated_at: expect.any(String), updated_by: admin.id,
    });
    expect(Date.parse(edited.json().data.updated_at)).toBeGreaterThan(Date.parse(middle!.updated_at));
    expect((await patchTier(middle!.id, { min_fee: null })).json().data.min_fee).toBeNull();

    for (const [payload, field, message] of [
      [{ min_amount: '600000' }, 'max_amount', 'The minimum amount must be less than the maximum amount.'],
      [{ percentage: '3.7' }, 'percentage', 'The fee percentage must be greater than 0 and less than 100.'],
      [{ min_amount: '5000.5' }, 'min_amount', 'Enter a valid amount for this currency.'],
    ] as const) {
      const res = await patchTier(middle!.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { [field]: message } });
    }
    const overlap = await patchTier(middle!.id, { min_amount: low!.min_amount });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json()).toEqual({ error: 'Fee tiers of a direction must not overlap.', code: 'fee_tier_overlap' });
    expect((await tiersOf('RWF_USD')).find((x) => x.id === middle!.id)).toMatchObject({ min_amount: middle!.min_amount, min_fee: null });
    expect((await patchTier('00000000-0000-4000-8000-000000000000', { min_fee: '1' })).statusCode).toBe(404);
  });

  it('an edit applies to new transfers only: a created transfer keeps its fee and rate', async () => {
    const initiate = async () => {
      const res = await t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, payload: {
        source_provider: 'paypal_usd', destination_provider: 'mobile_rwanda', amount: '200', currency: 'USD',
        destination_details: { recipient_name: 'Jean Habimana', recipient_phone: '+250788000111' },
      } });
      expect(res.statusCode).toBe(201);
      return res.json().data as { id: string; fee: string; total: string; rate: string; payout_amount: string };
    };
    const before = await initiate();
    expect(before).toMatchObject({ fee: '8.20', total: '208.20', rate: '1300', payout_amount: '260000.00' });

    const middle = (await tiersOf('USD_RWF')).find((x) => x.min_amount === '100.00')!;
    expect((await patchTier(middle.id, { percentage: '0.02' })).statusCode).toBe(200);
    const rate = await t.request({ method: 'PATCH', url: '/api/rates/USD_RWF', token: admin.token, payload: { value: '1350.5' } });
    expect(rate.statusCode).toBe(200);
    expect(rate.json().data.USD_RWF).toBe('1350.5');

    // 2 % of $200 is $4.00, but a bigger transfer never costs less: the $4.80 of $100 (docs/rules/fees-and-rates.md#tiers).
    expect(await quote('USD_RWF', '200')).toMatchObject({ fee: '4.80', total: '204.80', rate: '1350.5' });
    expect(await quote('USD_RWF', '300')).toMatchObject({ fee: '6.00', total: '306.00' });
    expect(await initiate()).toMatchObject({ fee: '4.80', total: '204.80', rate: '1350.5', payout_amount: '270100.00' });
    const [stored] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, before.id));
    expect(stored).toMatchObject({ fee: '8.20', total: '208.20', rate: '1300.00000000000000000000', payout_amount: '260000.00' });
  });

  it('sets a rate with who changed it and when, and refuses a bad one', async () => {
    const before = (await t.request({ method: 'GET', url: '/api/rates' })).json().data;
    const res = await t.request({ method: 'PATCH', url: '/api/rates/EUR_XAF', token: admin.token, payload: { value: '656' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ EUR_XAF: '656' });
    expect(Date.parse(res.json().data.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    const [entry] = (await t.request({ method: 'GET', url: '/api/audit?target_type=rate', token: admin.token })).json().data;
    expect(entry).toMatchObject({ action: 'rate.update', target_id: 'EUR_XAF', before: { value: '655' }, after: { value: '656' }, actor: { email: admin.email } });
    expect(Date.parse(entry.created_at)).toBeGreaterThan(Date.now() - 60_000);

    for (const value of ['0', '-3', 'abc']) {
      const bad = await t.request({ method: 'PATCH', url: '/api/rates/EUR_XAF', token: admin.token, payload: { value } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'Enter a rate greater than zero.', fields: { value: 'Enter a rate greater than zero.' } });
    }
    expect((await t.request({ method: 'PATCH', url: '/api/rates/GBP_XAF', token: admin.token, payload: { value: '1' } })).statusCode).toBe(404);
  });

  it('two admins adding overlapping tiers at once: one is refused', async () => {
    const [top] = (await tiersOf('XAF_EUR')).filter((x) => x.max_amount === null);
    expect((await patchTier(top!.id, { max_amount: '1200000' })).statusCode).toBe(200);
    const results = await Promise.all([
      post({ direction: 'XAF_EUR', percentage: '0.02', min_amount: '1200000', max_amount: '2000000' }),
      post({ direction: 'XAF_EUR', percentage: '0.021', min_amount: '1500000', max_amount: null }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
  });

  it('lists role changes in the audit log, and refuses an unknown target type', async () => {
    const member = await createUser(t, { full_name: 'Nia Member' });
    expect((await t.request({ method: 'PATCH', url: `/api/profiles/${member.id}`, token: admin.token, payload: { role: 'manager' } })).statusCode).toBe(200);
    const [entry] = (await t.request({ method: 'GET', url: '/api/audit?target_type=profile', token: admin.token })).json().data;
    expect(entry).toMatchObject({ target_type: 'profile', target_id: member.id, before: { role: 'user' }, after: { role: 'manager' }, actor: { profile_id: admin.id } });
    const bad = await t.request({ method: 'GET', url: '/api/audit?target_type=session', token: admin.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Choose an object from the list.');
  });
});

describe('fee tiers cover each corridor with no gap (docs/rules/fees-and-rates.md#tiers): a single-tier edit keeps shared edges together', () => {
  const del = (id: string) => t.request({ method: 'DELETE', url: `/api/fees/${id}`, token: admin.token });
  const audited = async (id: string) =>
    (await t.request({ method: 'GET', url: `/api/audit?target_type=fee_tier&target_id=${id}`, token: admin.token })).json().data as
      { action: string; before: Tier | null; after: Tier | null }[];
  const GAP_EN = 'A corridor\'s fee tiers must cover its whole range, from 3000 to 1200000 XAF, with no gap: this change would leave part of it without a tier.';
  const GAP_FR = 'Les paliers de frais d’un corridor doivent couvrir toute sa plage, de 3000 à 1200000 XAF, sans trou\u00a0: cette modification en laisserait une partie sans palier.';

  it('refuses an edit that leaves the corridor minimum uncovered, in English and French, and changes nothing', async () => {
    const before = await tiersOf('XAF_USD');
    expect(before[0]!.min_amount).toBe('3000.00');
    const raised = await patchTier(before[0]!.id, { min_amount: '5000' });
    expect(raised.statusCode).toBe(400);
    expect(raised.json()).toEqual({ error: GAP_EN, code: 'fee_tier_gap' });
    const french = await t.request({ method: 'PATCH', url: `/api/fees/${before[0]!.id}`, token: admin.token,
      headers: { 'accept-language': 'fr' }, payload: { min_amount: '5000' } });
    expect(french.json()).toEqual({ error: GAP_FR, code: 'fee_tier_gap' });
    expect(await tiersOf('XAF_USD')).toEqual(before);
  });

  it('refuses bounding the top tier below the corridor maximum; a deleted tier above it gives its range back', async () => {
    const [, middle, top] = await tiersOf('XAF_USD');
    const bounded = await patchTier(top!.id, { max_amount: '1000000' });
    expect(bounded.statusCode).toBe(400);
    expect(bounded.json()).toEqual({ error: GAP_EN, code: 'fee_tier_gap' });
    // Up to the corridor maximum is enough; then a tier above it may go, the one reaching it may not.
    expect((await patchTier(top!.id, { max_amount: '1200000' })).statusCode).toBe(200);
    const above = await post({ direction: 'XAF_USD', percentage: '0.02', min_amount: '1200000', max_amount: null });
    expect(above.statusCode).toBe(201);
    expect((await del(above.json().data.id)).statusCode).toBe(200);
    const after = await tiersOf('XAF_USD');
    expect(after.find((x) => x.id === top!.id)).toMatchObject({ min_amount: '300000.00', max_amount: null });
    expect(after.find((x) => x.id === middle!.id)!.max_amount).toBe('300000.00');
  });

  it('a moved edge moves the neighbour that shares it, each change in the audit log; prices follow', async () => {
    const [low, middle, top] = await tiersOf('USD_EUR'); // [1,100] 3.2 %, [100,500] 2.8 %, [500,∞) 2.4 %
    expect((await quote('USD_EUR', '120')).fee).toBe('3.36'); // 2.8 %, above the $3.20 of $100
    const moved = await patchTier(middle!.id, { min_amount: '150' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ min_amount: '150.00', max_amount: '500.00' });
    const after = await tiersOf('USD_EUR');
    expect(after.find((x) => x.id === low!.id)).toMatchObject({ min_amount: '1.00', max_amount: '150.00' });
    expect(after.find((x) => x.id === top!.id)).toMatchObject({ min_amount: '500.00', max_amount: null });
    expect((await quote('USD_EUR', '120')).fee).toBe('3.84'); // now the first tier's 3.2 %
    const [neighbourEntry] = await audited(low!.id);
    expect(neighbourEntry).toMatchObject({ action: 'fee_tier.update', before: { max_amount: '100.00' }, after: { max_amount: '150.00' } });

    // The upper edge too: the top tier now starts where the middle one ends.
    expect((await patchTier(middle!.id, { max_amount: '800' })).statusCode).toBe(200);
    expect((await tiersOf('USD_EUR')).find((x) => x.id === top!.id)).toMatchObject({ min_amount: '800.00', max_amount: null });
    expect((await quote('USD_EUR', '700')).fee).toBe('19.60'); // 2.8 %

    // A move that would swallow the neighbour is an overlap.
    const swallow = await patchTier(middle!.id, { min_amount: '1' });
    expect(swallow.statusCode).toBe(400);
    expect(swallow.json().code).toBe('fee_tier_overlap');
  });

  it('a deleted tier leaves its range to the tier below (the lowest tier\'s to the tier above); the last tier stays', async () => {
    const [low, middle, top] = await tiersOf('EUR_EUR_FRANCE'); // [1,100], [100,500], [500,∞)
    expect((await del(middle!.id)).statusCode).toBe(200);
    let tiers = await tiersOf('EUR_EUR_FRANCE');
    expect(tiers.map((x) => [x.id, x.min_amount, x.max_amount])).toEqual([[low!.id, '1.00', '500.00'], [top!.id, '500.00', null]]);
    expect((await quote('EUR_EUR_FRANCE', '300')).fee).toBe('7.20'); // the first tier's 2.4 %
    expect((await audited(low!.id))[0]).toMatchObject({ action: 'fee_tier.update', after: { max_amount: '500.00' } });

    expect((await del(low!.id)).statusCode).toBe(200);
    tiers = await tiersOf('EUR_EUR_FRANCE');
    expect(tiers.map((x) => [x.id, x.min_amount, x.max_amount])).toEqual([[top!.id, '1.00', null]]);

    const last = await del(top!.id);
    expect(last.statusCode).toBe(400);
    expect(last.json()).toMatchObject({ code: 'fee_tier_gap', error: expect.stringContaining('from 5 to 2000 EUR') });
    expect(await tiersOf('EUR_EUR_FRANCE')).toHaveLength(1);
  });
});
