import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t);
  bob = await createUser(t);
});
afterAll(async () => { await t.close(); });

const create = (user: TestUser | null, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/recipients', token: user?.token, payload });

describe('saved recipients', () => {
  it('creates, lists newest first and deletes the sender’s own recipients', async () => {
    const phone = await create(alice, { channel: 'airtel_gabon', recipient_name: 'Jean', recipient_phone: '+241 77 12 34 56', label: 'Brother' });
    expect(phone.statusCode).toBe(201);
    expect(phone.json().data).toMatchObject({ channel: 'airtel_gabon', recipient_phone: '+24177123456', label: 'Brother' });
    expect(phone.json().data).not.toHaveProperty('profile_id');
    const bank = await create(alice, { channel: 'bank_france', recipient_name: 'Paul Martin', iban: 'fr76 3000 6000 0112 3456 7890 189' });
    expect(bank.json().data.iban).toBe('FR7630006000011234567890189');
    const list = (await t.request({ method: 'GET', url: '/api/recipients', token: alice.token })).json().data;
    expect(list.map((r: { id: string }) => r.id)).toEqual([bank.json().data.id, phone.json().data.id]);
    // Saving the same recipient twice keeps one.
    const dup = await create(alice, { channel: 'airtel_gabon', recipient_name: 'Jean', recipient_phone: '+24177123456' });
    expect(dup.json().data.id).toBe(phone.json().data.id);

    const del = await t.request({ method: 'DELETE', url: `/api/recipients/${phone.json().data.id}`, token: alice.token });
    expect(del.statusCode).toBe(200);
    const after = (await t.request({ method: 'GET', url: '/api/recipients', token: alice.token })).json().data;
    expect(after).toHaveLength(1);
  });

  it('checks a recipient like a transfer destination', async () => {
    expect((await create(alice, { channel: 'paypal_usd', recipient_name: 'Marie' })).json().error).toBe('PayPal email address is required for PayPal transfers.');
    expect((await create(alice, { channel: 'mobile_rwanda' })).json().error).toBe('Please enter recipient phone number.');
    expect((await create(alice, { channel: 'bank_france', recipient_name: 'P', iban: 'FR00' })).json().error).toBe('Enter a valid IBAN.');
    expect((await create(alice, { channel: 'moon' })).json().error).toBe('Choose a valid payment channel.');
  });

  it('keeps each sender’s recipients to themselves', async () => {
    const mine = (await create(alice, { channel: 'paypal_eur', recipient_name: 'Marie', recipient_email: 'marie@example.test' })).json().data;
    const bobs = (await t.request({ method: 'GET', url: '/api/recipients', token: bob.token })).json().data;
    expect(bobs).toEqual([]);
    const del = await t.request({ method: 'DELETE', url: `/api/recipients/${mine.id}`, token: bob.token });
    expect(del.statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: '/api/recipients/nope', token: bob.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/recipients' })).statusCode).toBe(401);
    expect((await create(null, { channel: 'moon' })).statusCode).toBe(401);
  });
});
