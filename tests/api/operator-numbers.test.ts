import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// docs/rules/corridors.md#phone-country-rules: a mobile payout number must be one of the destination's operators', on the transfer and on
// a saved recipient, from the prefix table the admin edits.

let t: TestApp;
let sender: TestUser;
let admin: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, admin, manager] = await Promise.all([
    createUser(t), createUser(t, { role: 'admin', full_name: 'Ada Admin' }), createUser(t, { role: 'manager' }),
  ]);
});
afterAll(async () => { await t.close(); });

const CORRIDORS = { airtel_gabon: 'paypal_usd', mobile_rwanda: 'paypal_eur' } as const;
type Mobile = keyof typeof CORRIDORS;

const initiate = (destination: Mobile, phone: string, lang = 'en') => t.request({
  method: 'POST', url: '/api/payments/initiate', token: sender.token, headers: { 'accept-language': lang },
  payload: {
    source_provider: CORRIDORS[destination], destination_provider: destination, amount: '50',
    currency: destination === 'airtel_gabon' ? 'USD' : 'EUR', destination_details: { recipient_name: 'Jean', recipient_phone: phone },
  },
});
const saveRecipient = (channel: Mobile, phone: string, lang = 'en') => t.request({
  method: 'POST', url: '/api/recipients', token: sender.token, headers: { 'accept-language': lang },
  payload: { channel, recipient_name: 'Jean', recipient_phone: phone },
});

const GABON_REFUSAL = 'Enter a number from Airtel Gabon (+241 74… or 77…).';
const RWANDA_REFUSAL = 'Enter a number from Airtel Rwanda or MTN Rwanda (+250 72…, 73…, 78…, or 79…).';

describe('payout numbers of the destination\'s operators (docs/rules/corridors.md#phone-country-rules)', () => {
  it('accepts every seeded operator range on a transfer and on a saved recipient, typed in the usual ways, stored in E.164', async () => {
    const accepted: [Mobile, string, string][] = [
      ['airtel_gabon', '+241 74 12 34 56', '+24174123456'],
      ['airtel_gabon', '077 12 34 56', '+24177123456'],
      ['mobile_rwanda', '+250 788 123 456', '+250788123456'],
      ['mobile_rwanda', '0798-123-456', '+250798123456'],
      ['mobile_rwanda', '250 728 123 456', '+250728123456'],
      ['mobile_rwanda', '+250 73 812 3456', '+250738123456'],
    ];
    for (const [channel, typed, e164] of accepted) {
      const transfer = await initiate(channel, typed);
      expect(transfer.statusCode, typed).toBe(201);
      expect(transfer.json().data.destination_details.recipient_phone).toBe(e164);
      const saved = await saveRecipient(channel, typed);
      expect(saved.statusCode, typed).toBe(201);
      expect(saved.json().data.recipient_phone).toBe(e164);
    }
  });

  it('refuses the neighbouring ranges and old numbers with a 400 naming the operators, in the caller\'s language', async () => {
    const refused: [Mobile, string, string][] = [
      ['airtel_gabon', '+241 76 12 34 56', GABON_REFUSAL],
      ['airtel_gabon', '+241 73 12 34 56', GABON_REFUSAL],
      ['airtel_gabon', '+241 06 12 34 56', GABON_REFUSAL],
      ['airtel_gabon', '+250 788 123 456', GABON_REFUSAL],
      ['airtel_gabon', '077 12 34 5', GABON_REFUSAL],
      ['mobile_rwanda', '+250 71 123 4567', RWANDA_REFUSAL],
      ['mobile_rwanda', '+250 74 123 4567', RWANDA_REFUSAL],
      ['mobile_rwanda', '+250 77 123 4567', RWANDA_REFUSAL],
      ['mobile_rwanda', '+241 77 12 34 56', RWANDA_REFUSAL],
    ];
    for (const [channel, typed, message] of refused) {
      const transfer = await initiate(channel, typed);
      expect(transfer.statusCode, typed).toBe(400);
      expect(transfer.json()).toMatchObject({ error: message, code: 'recipient_phone_operator', fields: { 'destination_details.recipient_phone': message } });
      const saved = await saveRecipient(channel, typed);
      expect(saved.statusCode, typed).toBe(400);
      expect(saved.json()).toMatchObject({ error: message, fields: { recipient_phone: message } });
    }
    const french = await initiate('mobile_rwanda', '+250 71 123 4567', 'fr');
    expect(french.json().error).toBe('Saisissez un numéro Airtel Rwanda ou MTN Rwanda (+250 72…, 73…, 78… ou 79…).');
    const list = (await t.request({ method: 'GET', url: '/api/recipients', token: sender.token })).json().data as { recipient_phone: string }[];
    expect(list.map((r) => r.recipient_phone)).not.toContain('+24176123456');
  });

  it('publishes the table for the browser, revalidated by its ETag', async () => {
    const res = await t.request({ method: 'GET', url: '/api/operators' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(expect.arrayContaining([
      { channel: 'airtel_gabon', operator: 'Airtel Gabon', prefix: '74' },
      { channel: 'mobile_rwanda', operator: 'MTN Rwanda', prefix: '79' },
      { channel: 'mobile_rwanda', operator: 'Airtel Rwanda', prefix: '72' },
    ]));
    expect(res.headers['cache-control']).toBe('no-cache');
    const again = await t.request({ method: 'GET', url: '/api/operators', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});

describe('the admin edits the table', () => {
  const url = '/api/admin/operator-prefixes';
  const rangeOf = async (prefix: string) =>
    ((await t.request({ method: 'GET', url, token: admin.token })).json().data as { id: string; channel: string; prefix: string }[])
      .find((r) => r.channel === 'airtel_gabon' && r.prefix === prefix);

  it('adds a range, which numbers are then accepted from at once; edits and deletes it; each step audited', async () => {
    expect((await initiate('airtel_gabon', '+241 76 12 34 56')).statusCode).toBe(400);
    const created = await t.request({ method: 'POST', url, token: admin.token, payload: { channel: 'airtel_gabon', operator: ' Airtel Gabon ', prefix: '7 6' } });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ channel: 'airtel_gabon', operator: 'Airtel Gabon', prefix: '76', updated_by: admin.id });
    const id = created.json().data.id as string;

    const transfer = await initiate('airtel_gabon', '+241 76 12 34 56');
    expect(transfer.statusCode).toBe(201);
    expect(transfer.json().data.destination_details.recipient_phone).toBe('+24176123456');
    expect((await initiate('airtel_gabon', '+241 71 12 34 56')).json().error).toBe('Enter a number from Airtel Gabon (+241 74…, 76…, or 77…).');
    expect((await t.request({ method: 'GET', url: '/api/operators' })).json().data)
      .toContainEqual({ channel: 'airtel_gabon', operator: 'Airtel Gabon', prefix: '76' });

    const edited = await t.request({ method: 'PUT', url: `${url}/${id}`, token: admin.token, payload: { operator: 'Airtel Gabon', prefix: '75' } });
    expect(edited.statusCode).toBe(200);
    expect((await initiate('airtel_gabon', '+241 76 12 34 56')).statusCode).toBe(400);
    expect((await initiate('airtel_gabon', '+241 75 12 34 56')).statusCode).toBe(201);

    expect((await t.request({ method: 'DELETE', url: `${url}/${id}`, token: admin.token })).statusCode).toBe(200);
    expect((await initiate('airtel_gabon', '+241 75 12 34 56')).statusCode).toBe(400);
    expect((await t.request({ method: 'DELETE', url: `${url}/${id}`, token: admin.token })).statusCode).toBe(404);

    const audit = (await t.request({ method: 'GET', url: `/api/audit?target_type=operator_prefix&target_id=${id}`, token: admin.token })).json().data;
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['operator_prefix.delete', 'operator_prefix.update', 'operator_prefix.create']);
    const [deleted, updated, added] = audit;
    expect(added).toMatchObject({ before: null, after: { prefix: '76', operator: 'Airtel Gabon' }, actor: { profile_id: admin.id } });
    expect(updated).toMatchObject({ before: { prefix: '76' }, after: { prefix: '75' } });
    expect(deleted).toMatchObject({ before: { prefix: '75' }, after: null });
  });

  it('refuses bad input, overlapping ranges and deleting a destination\'s last range, changing nothing', async () => {
    const post = (payload: object) => t.request({ method: 'POST', url, token: admin.token, payload });
    expect((await post({ channel: 'bank_france', operator: 'X', prefix: '7' })).json().fields.channel).toBe('Choose Airtel Gabon or Rwanda mobile money.');
    expect((await post({ channel: 'airtel_gabon', operator: ' ', prefix: '7' })).json().fields.operator).toBe('Enter the operator\'s name.');
    for (const prefix of ['', '7a', '12345']) {
      expect((await post({ channel: 'airtel_gabon', operator: 'X', prefix })).json().fields.prefix).toBe('Enter 1 to 4 digits, e.g. 77.');
    }
    for (const prefix of ['77', '7', '771']) {
      const res = await post({ channel: 'airtel_gabon', operator: 'Other', prefix });
      expect(res.statusCode).toBe(409);
      expect(res.json().fields.prefix).toMatch(/overlaps the range (77|74) \(Airtel Gabon\)/);
    }
    // Another channel's ranges do not overlap these.
    const rwanda = await post({ channel: 'mobile_rwanda', operator: 'Test Rwanda', prefix: '74' });
    expect(rwanda.statusCode).toBe(201);

    const seventyFour = (await rangeOf('74'))!;
    const seventySeven = (await rangeOf('77'))!;
    expect((await t.request({ method: 'DELETE', url: `${url}/${seventyFour.id}`, token: admin.token })).statusCode).toBe(200);
    const last = await t.request({ method: 'DELETE', url: `${url}/${seventySeven.id}`, token: admin.token });
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toBe('A destination keeps at least one range: add the new one before deleting this one.');
    expect(await rangeOf('77')).toBeDefined();
    const putBack = await post({ channel: 'airtel_gabon', operator: 'Airtel Gabon', prefix: '74' });
    expect(putBack.statusCode).toBe(201);
  });

  it('is the admin\'s alone', async () => {
    for (const user of [sender, manager]) {
      const get = await t.request({ method: 'GET', url, token: user.token });
      expect(get.statusCode).toBe(403);
      const post = await t.request({ method: 'POST', url, token: user.token, payload: { channel: 'airtel_gabon', operator: 'X', prefix: '60' } });
      expect(post.statusCode).toBe(403);
    }
    expect((await t.request({ method: 'POST', url, payload: { channel: 'airtel_gabon', operator: 'X', prefix: '60' } })).statusCode).toBe(401);
    expect((await initiate('airtel_gabon', '+241 60 12 34 56')).statusCode).toBe(400);
  });
});
