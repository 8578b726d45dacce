import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Know your sender (docs/rules/know-your-sender.md): levels, the limits of each level in EUR over
// one transfer, 30 and 365 days, refused before paying; the date of birth; the travel-rule data.
// Rates as seeded: 1 EUR = 1.08 USD = 655 XAF.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager] = await Promise.all([createUser(t, { role: 'admin' }), createUser(t, { role: 'manager' })]);
});
afterAll(async () => { await t.close(); });

type Currency = 'EUR' | 'USD';
const call = (token: string | undefined, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  t.request({ method, url, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });

function initiate(user: TestUser, amount: string, currency: Currency = 'EUR', details: Record<string, string> = { recipient_name: 'Jean Ndong' }) {
  return call(user.token, 'POST', '/api/payments/initiate', {
    source_provider: currency === 'EUR' ? 'paypal_eur' : 'paypal_usd', destination_provider: 'airtel_gabon', amount, currency,
    destination_details: { recipient_phone: '+241 77 12 34 56', ...details },
  });
}
const kyc = async (user: TestUser) => {
  const res = await call(user.token, 'GET', '/api/kyc');
  expect(res.statusCode).toBe(200);
  return res.json().data as { level: number; windows: { window: string; limit: string | null; used: string; left: string | null; currency: string }[]; next: unknown; open_review: null };
};
const windowOf = async (user: TestUser, name: string) => (await kyc(user)).windows.find((w) => w.window === name)!;

/** A transfer the sender made `daysAgo` days ago, written straight into the table. */
async function sentBefore(user: TestUser, amount: string, currency: 'EUR' | 'USD' | 'XAF', daysAgo: number, status = 'completed') {
  await t.database.pool.query(
    `insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, amount, currency, fee, total, rate,
       payout_amount, payout_currency, status, created_at)
     values ($1, $2, 'EUR_XAF', 'paypal_eur', 'airtel_gabon', $3, $4, 0, $3, 655, 1, 'XAF', $5, now() - make_interval(days => $6))`,
    [`MT-SEED${randomBytes(4).toString('hex').toUpperCase()}`, user.id, amount, currency, status, daysAgo],
  );
}

/** The default limits in EUR (docs/rules/know-your-sender.md#limits). */
const LIMITS = { 1: { d30: 1000, d365: 3000 }, 2: { d30: 7000, d365: 42000 }, 3: { d30: 20000, d365: 100000 } } as const;

describe('each level\'s limits at each window\'s edge, in each paying currency', () => {
  // With 100 EUR left: 100.00 EUR (108.00 USD) passes, one cent more is refused with what is left.
  const cases = ([1, 2, 3] as const).flatMap((level) => (['30d', '365d'] as const).flatMap((window) =>
    (['EUR', 'USD'] as const).map((currency) => ({ level, window, currency }))));
  it.each(cases)('level $level, $window, paid in $currency', async ({ level, window, currency }) => {
    const sender = await createUser(t, { kyc_level: level });
    const limit = window === '30d' ? LIMITS[level].d30 : LIMITS[level].d365;
    // 30 days: sent yesterday; 365 days: sent 200 days ago, outside the 30 days.
    await sentBefore(sender, String(limit - 100), 'EUR', window === '30d' ? 1 : 200);
    const [atLimit, over] = currency === 'EUR' ? ['100.00', '100.01'] : ['108.00', '108.01'];

    const refused = await initiate(sender, over, currency);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'limit_exceeded', window, left: '100.00', currency: 'EUR' });
    expect(refused.json().error).toContain('€100.00');

    expect((await initiate(sender, atLimit, currency)).statusCode).toBe(201);
    expect(await windowOf(sender, window)).toEqual({ window, limit: `${limit}.00`, used: `${limit}.00`, left: '0.00', currency: 'EUR' });
  });

  it.each([['EUR', '1000.00', '1000.01'], ['USD', '1080.00', '1080.01']] as const)(
    'level 1, one transfer, paid in %s: %s passes, %s is refused', async (currency, atLimit, over) => {
      const sender = await createUser(t, { kyc_level: 0 });
      expect((await kyc(sender)).level).toBe(1);
      const refused = await initiate(sender, over, currency);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'limit_exceeded', window: 'transfer', left: '1000.00', currency: 'EUR' });
      expect((await initiate(sender, atLimit, currency)).statusCode).toBe(201);
    });

  it('one transfer is capped by the tightest window: 850 EUR used of 1,000 over 30 days leaves 150 for one transfer, as the dashboard reads it', async () => {
    const sender = await createUser(t, { kyc_level: 0 });
    await sentBefore(sender, '850', 'EUR', 3);
    expect((await kyc(sender)).windows).toEqual([
      { window: 'transfer', limit: '1000.00', used: '0.00', left: '150.00', currency: 'EUR' },
      { window: '30d', limit: '1000.00', used: '850.00', left: '150.00', currency: 'EUR' },
      { window: '365d', limit: '3000.00', used: '850.00', left: '2150.00', currency: 'EUR' },
    ]);
    // Over one transfer's own limit: refused for one transfer, with what one transfer may still be.
    expect((await initiate(sender, '1000.01')).json()).toMatchObject({ code: 'limit_exceeded', window: 'transfer', left: '150.00' });
    expect((await initiate(sender, '150.01')).json()).toMatchObject({ code: 'limit_exceeded', window: '30d', left: '150.00' });
    expect((await initiate(sender, '150.00')).statusCode).toBe(201);
    expect(await windowOf(sender, 'transfer')).toMatchObject({ limit: '1000.00', left: '0.00' });
  });

  it('levels 2 and 3 send up to the corridor\'s maximum in one transfer', async () => {
    for (const level of [2, 3]) {
      const sender = await createUser(t, { kyc_level: level });
      expect((await windowOf(sender, 'transfer'))).toMatchObject({ limit: null, left: null });
      expect((await initiate(sender, '2000', 'EUR')).statusCode).toBe(201);
    }
  });

  it('two initiations at once cannot both take the last of the headroom', async () => {
    const sender = await createUser(t, { kyc_level: 1 });
    await sentBefore(sender, '900', 'EUR', 1);
    const results = await Promise.all([initiate(sender, '100', 'EUR'), initiate(sender, '100', 'EUR')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});

describe('what the limits count', () => {
  it('leaves out cancelled and rejected transfers, and counts other currencies at the published rates', async () => {
    const sender = await createUser(t, { kyc_level: 1 });
    await sentBefore(sender, '1000', 'EUR', 1, 'cancelled');
    await sentBefore(sender, '1000', 'EUR', 2, 'rejected');
    await sentBefore(sender, '65500', 'XAF', 3, 'pending');
    await sentBefore(sender, '108', 'USD', 400);
    expect(await kyc(sender)).toEqual({
      level: 1,
      windows: [
        // One transfer may be at most what the 30 days leave.
        { window: 'transfer', limit: '1000.00', used: '0.00', left: '900.00', currency: 'EUR' },
        { window: '30d', limit: '1000.00', used: '100.00', left: '900.00', currency: 'EUR' },
        { window: '365d', limit: '3000.00', used: '100.00', left: '2900.00', currency: 'EUR' },
      ],
      next: { level: 2, provide: ['identity_document', 'selfie'] },
      open_review: null,
    });
    expect((await initiate(sender, '900', 'EUR')).statusCode).toBe(201);
  });

  it('a sender\'s own cancellation gives the amount back', async () => {
    const sender = await createUser(t, { kyc_level: 1 });
    const sent = await initiate(sender, '1000', 'EUR');
    expect(sent.statusCode).toBe(201);
    expect((await initiate(sender, '10', 'EUR')).statusCode).toBe(409);
    const cancel = await call(sender.token, 'POST', `/api/transfer-requests/${sent.json().data.id}/cancel`);
    expect(cancel.statusCode).toBe(200);
    expect((await windowOf(sender, '30d')).used).toBe('0.00');
    expect((await initiate(sender, '10', 'EUR')).statusCode).toBe(201);
  });
});

/** A transfer written on the UTC day `daysAgo` days before today, at that day's first second (the oldest moment of the day). */
async function sentOnDay(user: TestUser, amount: string, daysAgo: number, status = 'completed') {
  await t.database.pool.query(
    `insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, amount, currency, fee, total, rate,
       payout_amount, payout_currency, status, created_at)
     values ($1, $2, 'EUR_XAF', 'paypal_eur', 'airtel_gabon', $3, 'EUR', 0, $3, 655, 1, 'XAF', $4,
       ((now() at time zone 'UTC')::date - $5::int)::timestamp at time zone 'UTC')`,
    [`MT-SEED${randomBytes(4).toString('hex').toUpperCase()}`, user.id, amount, status, daysAgo],
  );
}

/** The sender's running totals as stored, and the same recounted from transfer_requests: they must be equal. */
async function totalsAndRecount(profileIds: string[]) {
  const stored = await t.database.pool.query(
    `select profile_id, currency, day::text, amount::text, transfers from sender_daily_totals
     where profile_id = any($1::uuid[]) and transfers <> 0 order by 1, 2, 3`, [profileIds]);
  const recount = await t.database.pool.query(
    `select profile_id, currency, (created_at at time zone 'UTC')::date::text as day, sum(amount)::numeric(20,2)::text as amount, count(*)::int as transfers
     from transfer_requests where profile_id = any($1::uuid[]) and status not in ('cancelled', 'rejected')
     group by 1, 2, 3 order by 1, 2, 3`, [profileIds]);
  return { stored: stored.rows, recount: recount.rows };
}

describe('the windows in UTC days (docs/rules/know-your-sender.md#limits)', () => {
  it('30 days are today and the 29 UTC days before: a transfer 29 days ago counts, one 30 days ago does not', async () => {
    const counted = await createUser(t, { kyc_level: 1 });
    await sentOnDay(counted, '900', 29);
    expect(await windowOf(counted, '30d')).toMatchObject({ used: '900.00', left: '100.00' });
    expect((await initiate(counted, '100.01')).json()).toMatchObject({ code: 'limit_exceeded', window: '30d', left: '100.00' });
    expect((await initiate(counted, '100.00')).statusCode).toBe(201);

    const outside = await createUser(t, { kyc_level: 1 });
    await sentOnDay(outside, '900', 30);
    expect(await windowOf(outside, '30d')).toMatchObject({ used: '0.00', left: '1000.00' });
    expect(await windowOf(outside, '365d')).toMatchObject({ used: '900.00', left: '2100.00' });
    expect((await initiate(outside, '1000.00')).statusCode).toBe(201);
  });

  it('365 days are today and the 364 UTC days before: a transfer 364 days ago counts, one 365 days ago does not', async () => {
    const counted = await createUser(t, { kyc_level: 3 });
    await sentOnDay(counted, '99900', 364);
    expect(await windowOf(counted, '365d')).toMatchObject({ used: '99900.00', left: '100.00' });
    expect((await initiate(counted, '100.01')).json()).toMatchObject({ code: 'limit_exceeded', window: '365d', left: '100.00' });
    expect((await initiate(counted, '100.00')).statusCode).toBe(201);

    const outside = await createUser(t, { kyc_level: 3 });
    await sentOnDay(outside, '99900', 365);
    expect(await windowOf(outside, '365d')).toMatchObject({ used: '0.00', left: '100000.00' });
  });
});

describe('the running totals', () => {
  // Each sender pays a recipient of their own: monitoring holds a transfer to a number many senders pay.
  const ownRecipient = () => ({ recipient_name: 'Jean Ndong', recipient_phone: `+241 77 ${String(randomBytes(3).readUIntBE(0, 3) % 1000000).padStart(6, '0')}` });
  it('a transfer staff reject frees its amount, like one the sender cancels', async () => {
    const sender = await createUser(t, { kyc_level: 1 });
    const sent = await initiate(sender, '1000', 'EUR', ownRecipient());
    expect(sent.statusCode).toBe(201);
    expect((await initiate(sender, '10', 'EUR', ownRecipient())).json()).toMatchObject({ code: 'limit_exceeded', window: '30d', left: '0.00' });
    const rejected = await call(manager.token, 'PATCH', `/api/transfer-requests/${sent.json().data.id}`, { status: 'rejected', note: 'Recipient number closed' });
    expect(rejected.statusCode).toBe(200);
    expect(await windowOf(sender, '30d')).toMatchObject({ used: '0.00', left: '1000.00' });
    expect((await initiate(sender, '1000', 'EUR', ownRecipient())).statusCode).toBe(201);
  });

  it('ten initiations of one sender at once never pass the limit: exactly the five that fit are written', async () => {
    const sender = await createUser(t, { kyc_level: 1 });
    await sentBefore(sender, '500', 'EUR', 1);
    const results = await Promise.all(Array.from({ length: 10 }, () => initiate(sender, '100', 'EUR', ownRecipient())));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 409).map((r) => r.json().code)).toEqual(Array(5).fill('limit_exceeded'));
    expect(await windowOf(sender, '30d')).toMatchObject({ used: '1000.00', left: '0.00' });
  });

  it('equal a recount of transfer_requests after a mix of initiations, cancellations, rejections and edits', async () => {
    const [a, b] = await Promise.all([createUser(t, { kyc_level: 3 }), createUser(t, { kyc_level: 2 })]);
    const made: string[] = [];
    for (const [user, amount, currency] of [[a, '120.50', 'EUR'], [a, '80', 'USD'], [a, '300', 'EUR'], [b, '45.25', 'EUR'], [b, '999.99', 'USD']] as const) {
      const res = await initiate(user, amount, currency, ownRecipient());
      expect(res.statusCode).toBe(201);
      made.push(res.json().data.id);
    }
    await sentBefore(a, '700', 'EUR', 3);
    await sentBefore(b, '65500', 'XAF', 40, 'pending');
    await sentBefore(b, '50', 'EUR', 2, 'cancelled');
    expect((await call(a.token, 'POST', `/api/transfer-requests/${made[0]}/cancel`)).statusCode).toBe(200);
    expect((await call(manager.token, 'PATCH', `/api/transfer-requests/${made[3]}`, { status: 'rejected', note: 'Wrong number' })).statusCode).toBe(200);
    expect((await call(manager.token, 'PATCH', `/api/transfer-requests/${made[4]}`, { status: 'processing' })).statusCode).toBe(200);
    const sql = t.database.pool;
    // Edits no route makes, each moving a transfer between rows: un-cancelled, amount and day changed, deleted.
    await sql.query(`update transfer_requests set status = 'pending' where id = $1`, [made[0]]);
    await sql.query(`update transfer_requests set amount = 81.5, total = 81.5 + fee, created_at = created_at - interval '5 days' where id = $1`, [made[1]]);
    await sql.query(`update transfer_requests set status = 'cancelled' where profile_id = $1 and currency = 'XAF'`, [b.id]);
    await sql.query(`delete from transactions where transfer_request_id = $1`, [made[2]]);
    await sql.query(`delete from transfer_status_history where transfer_request_id = $1`, [made[2]]);
    await sql.query(`delete from transfer_requests where id = $1`, [made[2]]);

    const { stored, recount } = await totalsAndRecount([a.id, b.id]);
    expect(recount.length).toBeGreaterThan(2);
    expect(stored).toEqual(recount);
    // GET /api/kyc reads the same totals: a's 120.50 + 700 EUR and 81.50 USD (75.47 EUR rounded up) in 30 days.
    expect(await windowOf(a, '30d')).toMatchObject({ used: '895.97' });
  });
});

describe('quotes', () => {
  it('a signed-in sender\'s quote over their limit is refused; the same quote signed out is priced', async () => {
    const sender = await createUser(t, { kyc_level: 1 });
    await sentBefore(sender, '950', 'EUR', 1);
    const quote = (token?: string) => call(token, 'POST', '/api/quotes', { direction: 'EUR_XAF', amount: '50.01' });
    const refused = await quote(sender.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'limit_exceeded', window: '30d', left: '50.00', currency: 'EUR' });
    expect((await quote()).statusCode).toBe(200);
    expect((await call(sender.token, 'POST', '/api/quotes', { direction: 'EUR_XAF', amount: '50' })).statusCode).toBe(200);
  });

  it('quotes of several senders asked at once (their totals read in one statement) are each judged on their own sender\'s totals', async () => {
    const [near, fresh, other] = await Promise.all([1, 1, 1].map((kyc_level) => createUser(t, { kyc_level })));
    await sentBefore(near!, '950', 'EUR', 1);
    await sentBefore(other!, '900', 'EUR', 1);
    const answers = await Promise.all([near, fresh, other].map((sender) => call(sender!.token, 'POST', '/api/quotes', { direction: 'EUR_XAF', amount: '60' })));
    expect(answers.map((a) => a.statusCode)).toEqual([409, 200, 200]);
    expect(answers[0]!.json()).toMatchObject({ code: 'limit_exceeded', window: '30d', left: '50.00', currency: 'EUR' });
  });
});

describe('level 0', () => {
  it('an account without a date of birth is level 0: priced, but its transfer refused with what to complete, until it adds it', async () => {
    const sender = await createUser(t, { date_of_birth: null, kyc_level: 0 });
    const state = await kyc(sender);
    expect(state.level).toBe(0);
    expect(state.next).toEqual({ level: 1, provide: ['date_of_birth'] });
    expect(state.windows.map((w) => w.left)).toEqual(['0.00', '0.00', '0.00']);

    const refused = await initiate(sender, '50');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'kyc_required', provide: ['date_of_birth'] });
    expect(refused.json().error).toContain('date of birth');
    const fr = await t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, headers: { 'accept-language': 'fr' }, payload: {
      source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '50', currency: 'EUR',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 12 34 56' },
    } });
    expect(fr.json().error).toContain('date de naissance');
    expect((await call(sender.token, 'POST', '/api/quotes', { direction: 'EUR_XAF', amount: '50' })).statusCode).toBe(200);

    expect((await call(sender.token, 'PATCH', '/api/profiles/me', { date_of_birth: '1990-04-12' })).statusCode).toBe(200);
    expect((await kyc(sender)).level).toBe(1);
    expect((await initiate(sender, '50')).statusCode).toBe(201);
  });

  it('a profile without an address is level 0 too, and the profile screen completes it', async () => {
    const sender = await createUser(t, { address: null, city: null, kyc_level: 0 });
    expect((await kyc(sender)).next).toEqual({ level: 1, provide: ['address', 'city'] });
    const saved = await call(sender.token, 'PATCH', '/api/profiles/me', { address: '4 avenue Bouët', city: 'Port-Gentil', state: 'Ogooué-Maritime', country: 'ga' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ address: '4 avenue Bouët', city: 'Port-Gentil', state: 'Ogooué-Maritime', country: 'GA', date_of_birth: '1990-04-12' });
    expect((await kyc(sender)).level).toBe(1);
  });
});

describe('date of birth', () => {
  const patch = (user: TestUser, date_of_birth: string) => call(user.token, 'PATCH', '/api/profiles/me', { date_of_birth });
  it('takes a real past day of someone at least 18, and nothing else', async () => {
    const sender = await createUser(t);
    const today = new Date();
    const yearsAgo = (years: number, days = 0) => {
      const d = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days));
      return d.toISOString().slice(0, 10);
    };
    for (const [value, message] of [
      ['1990-02-30', 'Enter your date of birth as a real date (YYYY-MM-DD).'],
      ['12/04/1990', 'Enter your date of birth as a real date (YYYY-MM-DD).'],
      [yearsAgo(-1), 'Your date of birth must be in the past.'],
      [yearsAgo(18, 1), 'You must be at least 18 to send money.'],
    ] as const) {
      const res = await patch(sender, value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json().fields, value).toEqual({ date_of_birth: message });
    }
    const me = await call(sender.token, 'GET', '/api/profiles/me');
    expect(me.json().data.date_of_birth).toBe('1990-04-12');
    const eighteenToday = await patch(sender, yearsAgo(18));
    expect(eighteenToday.statusCode).toBe(200);
    expect(eighteenToday.json().data.date_of_birth).toBe(yearsAgo(18));
  });
});

describe('the admin\'s limits', () => {
  it('staff read them; a sender neither reads nor edits them, a manager does not edit them', async () => {
    const sender = await createUser(t);
    const list = await call(manager.token, 'GET', '/api/kyc/limits');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map(({ level, transfer, d30, d365, currency }: Record<string, unknown>) => ({ level, transfer, d30, d365, currency }))).toEqual([
      { level: 1, transfer: '1000.00', d30: '1000.00', d365: '3000.00', currency: 'EUR' },
      { level: 2, transfer: null, d30: '7000.00', d365: '42000.00', currency: 'EUR' },
      { level: 3, transfer: null, d30: '20000.00', d365: '100000.00', currency: 'EUR' },
    ]);
    expect((await call(sender.token, 'GET', '/api/kyc/limits')).statusCode).toBe(403);
    const body = { transfer: '1000', d30: '5000', d365: '9000' };
    for (const user of [sender, manager]) {
      const res = await call(user.token, 'PUT', '/api/kyc/limits/1', body);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    expect((await call(admin.token, 'PUT', '/api/kyc/limits/0', body)).statusCode).toBe(404);
    expect((await call(admin.token, 'PUT', '/api/kyc/limits/4', body)).statusCode).toBe(404);
    const bad = await call(admin.token, 'PUT', '/api/kyc/limits/1', { ...body, d30: '-5' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('d30');
    expect((await call(manager.token, 'GET', '/api/kyc/limits')).json().data[0].d30).toBe('1000.00');
  });

  it('refuses 30 days above 365 days, or one transfer above 30 days, with a 422 naming the field', async () => {
    const over365 = await call(admin.token, 'PUT', '/api/kyc/limits/2', { transfer: null, d30: '42000.01', d365: '42000' });
    expect(over365.statusCode).toBe(422);
    expect(over365.json()).toMatchObject({ code: 'kyc_limits_order', fields: { d30: 'The 30 days\' limit cannot be more than the 365 days\' limit (42000.00 EUR).' } });
    const over30 = await call(admin.token, 'PUT', '/api/kyc/limits/1', { transfer: '1000.01', d30: '1000', d365: '3000' });
    expect(over30.statusCode).toBe(422);
    expect(over30.json().fields).toEqual({ transfer: 'One transfer\'s limit cannot be more than the 30 days\' limit (1000.00 EUR).' });
    const fr = await t.request({ method: 'PUT', url: '/api/kyc/limits/1', token: admin.token, headers: { 'accept-language': 'fr' },
      payload: { transfer: '1000.01', d30: '1000', d365: '3000' } });
    expect(fr.json().fields.transfer).toBe('Le plafond par transfert ne peut dépasser celui sur 30 jours (1000.00\u00a0EUR).');
    // Equal is allowed, and nothing was changed by the refusals.
    expect((await call(manager.token, 'GET', '/api/kyc/limits')).json().data[1]).toMatchObject({ d30: '7000.00', d365: '42000.00' });
    expect((await call(admin.token, 'PUT', '/api/kyc/limits/2', { transfer: '7000', d30: '7000', d365: '7000' })).statusCode).toBe(200);
    expect((await call(admin.token, 'PUT', '/api/kyc/limits/2', { transfer: null, d30: '7000', d365: '42000' })).statusCode).toBe(200);
  });

  it('an edit applies to the next transfer, and is audited with before and after', async () => {
    const sender = await createUser(t, { kyc_level: 1 });
    await sentBefore(sender, '1000', 'EUR', 1);
    expect((await initiate(sender, '500')).json()).toMatchObject({ code: 'limit_exceeded', window: '30d', left: '0.00' });

    const edit = await call(admin.token, 'PUT', '/api/kyc/limits/1', { transfer: '1000', d30: '2000', d365: '3000' });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().data).toMatchObject({ level: 1, transfer: '1000.00', d30: '2000.00', d365: '3000.00', currency: 'EUR' });
    expect((await initiate(sender, '500')).statusCode).toBe(201);
    expect(await windowOf(sender, '30d')).toMatchObject({ limit: '2000.00', used: '1500.00', left: '500.00' });

    const { rows } = await t.database.pool.query<{ actor_profile_id: string; before: { d30: string }; after: { d30: string } }>(
      `select * from audit_log where action = 'kyc_limits.update' and target_id = '1' order by id`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_profile_id: admin.id, before: { d30: '1000.00' }, after: { d30: '2000.00' } });

    // null: one transfer may reach the corridor's maximum.
    const open = await call(admin.token, 'PUT', '/api/kyc/limits/1', { transfer: null, d30: '1000', d365: '3000' });
    expect(open.json().data.transfer).toBeNull();
    await call(admin.token, 'PUT', '/api/kyc/limits/1', { transfer: '1000', d30: '1000', d365: '3000' });
  });
});

describe('travel rule', () => {
  it('requires the recipient\'s name from 1,000 EUR or USD for every destination', async () => {
    const sender = await createUser(t);
    for (const [amount, currency] of [['1000', 'EUR'], ['1000', 'USD']] as const) {
      const res = await initiate(sender, amount, currency, {});
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ 'destination_details.recipient_name': 'Enter the recipient\'s full name: it is required from 1,000 EUR or USD.' });
    }
    expect((await initiate(sender, '999.99', 'EUR', {})).statusCode).toBe(201);
    expect((await initiate(sender, '1000', 'EUR', { recipient_name: 'Jean Ndong' })).statusCode).toBe(201);
  });

  it('keeps who sent it and who gets it as they were, whatever the sender changes afterwards; staff see it', async () => {
    const sender = await createUser(t, {
      full_name: 'Awa Ndong', address: '12 rue des Palmiers', city: 'Libreville', state: 'Estuaire', country: 'GA', date_of_birth: '1985-06-30',
    });
    const sent = await initiate(sender, '150', 'EUR', { recipient_name: 'Jean Ndong' });
    expect(sent.statusCode).toBe(201);
    const id = sent.json().data.id as string;
    const expected = {
      originator: {
        full_name: 'Awa Ndong', date_of_birth: '1985-06-30', customer_number: sender.user_id, email: sender.email,
        address: { line: '12 rue des Palmiers', city: 'Libreville', state: 'Estuaire', country: 'GA' },
        account: { provider: 'paypal_eur', currency: 'EUR' },
      },
      beneficiary: { name: 'Jean Ndong', account: { kind: 'phone', value: '+24177123456' }, provider: 'airtel_gabon', country: 'GA' },
    };
    const stored = async () => (await t.database.pool.query('select travel_rule from transfer_requests where id = $1', [id])).rows[0].travel_rule;
    expect(await stored()).toMatchObject(expected);

    const edit = await call(sender.token, 'PATCH', '/api/profiles/me', { full_name: 'Awa Moussavou', address: '3 boulevard Triomphal', date_of_birth: '1985-07-01' });
    expect(edit.statusCode).toBe(200);
    expect(await stored()).toMatchObject(expected);

    const detail = await call(manager.token, 'GET', `/api/transfer-requests/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.travel_rule).toMatchObject(expected);
    // The sender's own view does not carry it.
    expect((await call(sender.token, 'GET', `/api/transfer-requests/${id}`)).json().data.travel_rule).toBeUndefined();
  });
});
