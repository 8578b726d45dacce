import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@server/lib/free-port.js';
import { ledgerEntries, mailOutbox, payoutAttempts, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { balances } from '@server/modules/ledger/service.js';
import { startPayout } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// A paid payout Airtel takes back (docs/rules/payout-rails.md#reversals): Airtel's callback makes
// the app ask again, Airtel's answer says the transaction failed, and the attempt is reversed: the
// books reversed, the transfer open again for staff, the sender told what happens next, and
// nothing paid again by itself: it waits in staff's "needs attention" (docs/rules/payout-rails.md#needs-attention).

let t: TestApp;
let airtel: AirtelPeer;
let staff: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  // The app listens so that Airtel's callbacks reach it over HTTP; e-mails leave at once.
  const port = await freePort();
  t = await createTestApp({
    env: {
      PUBLIC_URL: `http://127.0.0.1:${port}`, MAIL_GROUP_SECONDS: '0',
      ...airtel.env(),
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  airtel.callbackUrl = `${t.config.publicUrl}/api/rails/airtel/callback`;
  const admin = await createUser(t, { role: 'admin' });
  staff = await createUser(t, { role: 'manager' });
  expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await airtel?.stop();
});

const transferOf = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const attemptsOf = (id: string) => t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));
const mailsTo = (email: string) => t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));

/** A transfer paid in by staff and paid out through Airtel by itself, completed. */
async function paidOut(sender: TestUser) {
  const created = await createTransfer(t, sender.id, { recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
  const recorded = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/payment`, token: staff.token, payload: { amount: created.total, reference: `STMT-${created.reference}` } });
  expect(recorded.statusCode).toBe(200);
  await expect.poll(async () => (await transferOf(created.id)).status, { timeout: 15_000 }).toBe('completed');
  return created;
}

describe('a payout Airtel takes back', () => {
  it('is reversed: the books undone, the transfer open again for staff, the sender told in their language, nothing paid again', async () => {
    const sender = await createUser(t, { full_name: 'Awa Mbina', language: 'fr' });
    const transfer = await paidOut(sender);
    const [paid] = await attemptsOf(transfer.id);
    expect(paid!.state).toBe('succeeded');
    const floatBefore = airtel.floatOf('XAF');

    airtel.reverse(paid!.reference);
    await expect.poll(async () => (await attemptsOf(transfer.id))[0]!.state, { timeout: 30_000 }).toBe('reversed');

    // Airtel holds the money again; the recipient was paid once and it was taken back.
    expect(BigInt(airtel.floatOf('XAF'))).toBe(BigInt(floatBefore) + BigInt(paid!.amount.split('.')[0]!));
    expect(airtel.paidCount(paid!.reference)).toBe(1);
    expect(airtel.reversals.map((r) => r.reference)).toEqual([paid!.reference]);
    const [reversed] = await attemptsOf(transfer.id);
    expect(reversed!.steps.at(-1)).toMatchObject({ call: 'disbursement', operator_code: 'DP00900001005', state: 'reversed' });

    // The transfer: no longer paid out, open again (processing), the return in its timeline.
    expect(await transferOf(transfer.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent', payout_reference: null, payment_status: 'received' });
    const timeline = await t.database.db.select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, transfer.id)).orderBy(asc(transferStatusHistory.id));
    expect(timeline.map((s) => s.event ?? `${s.from_status}→${s.to_status}`)).toEqual(expect.arrayContaining(['payout_sent', 'processing→completed', 'payout_returned', 'completed→processing']));

    // The books: the payout and the fee reversed, the money held for the sender again, every currency balanced.
    const entries = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transfer_request_id, transfer.id)).orderBy(asc(ledgerEntries.id));
    expect(entries.map((e) => e.kind)).toEqual(['payment', 'payout', 'fee', 'payout_reversal', 'fee_reversal']);
    const held = (await t.database.db.execute(sql`select coalesce(sum(l.amount), 0)::text as sum from ledger_lines l join ledger_entries e on e.id = l.entry_id
      where e.transfer_request_id = ${transfer.id} and l.account = 'customer_funds'`)).rows[0] as { sum: string };
    expect(Number(held.sum)).toBe(-Number(transfer.total));
    expect((await balances(t.database.db)).totals.every((c) => Number(c.sum) === 0)).toBe(true);

    // The sender is told, in French, that the money came back and what happens next.
    await expect.poll(async () => (await mailsTo(sender.email)).some((m) => /renvoy/i.test(m.subject)), { timeout: 10_000 }).toBe(true);
    const mail = (await mailsTo(sender.email)).find((m) => /renvoy/i.test(m.subject))!;
    expect(mail.subject).toContain(transfer.reference);
    expect(mail.text).toMatch(/Airtel Money/);
    expect(mail.text).toMatch(/Rien n’est perdu/);

    // Staff decide what follows: started again, nothing leaves by itself; Airtel's callback again changes nothing.
    const disbursements = airtel.calls('POST', '/standard/v2/disbursements').length;
    expect(await startPayout({ config: t.config, db: t.database.db }, transfer.id)).not.toBe('sent');
    await airtel.callback(paid!.reference, { status_code: 'TS' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(airtel.calls('POST', '/standard/v2/disbursements')).toHaveLength(disbursements);
    expect((await attemptsOf(transfer.id)).map((a) => a.state)).toEqual(['reversed']);
    expect(entries).toHaveLength((await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transfer_request_id, transfer.id))).length);
  }, 60_000);

  it('tells an English-speaking sender in English', async () => {
    const sender = await createUser(t, { full_name: 'John Doe', language: 'en' });
    const transfer = await paidOut(sender);
    airtel.reverse((await attemptsOf(transfer.id))[0]!.reference);
    await expect.poll(async () => (await mailsTo(sender.email)).some((m) => /sent back/i.test(m.subject)), { timeout: 30_000 }).toBe(true);
    const mail = (await mailsTo(sender.email)).find((m) => /sent back/i.test(m.subject))!;
    expect(mail.subject).toContain(transfer.reference);
    expect(mail.text).toMatch(/Airtel Money/);
    expect(mail.text).toMatch(/Nothing is lost/);
  }, 60_000);
});

describe('a payout Airtel took back, in staff\'s "needs attention"', () => {
  it('is listed as sent back, since the operator took it back, with the operator\'s code, until staff refund it', async () => {
    const sender = await createUser(t, { language: 'en' });
    const transfer = await paidOut(sender);
    airtel.reverse((await attemptsOf(transfer.id))[0]!.reference);
    await expect.poll(async () => (await attemptsOf(transfer.id))[0]!.state, { timeout: 30_000 }).toBe('reversed');
    const [reversed] = await attemptsOf(transfer.id);

    const listed = (await t.request({ method: 'GET', url: '/api/payout-exceptions', token: staff.token })).json().data
      .filter((e: { transfer: { id: string } }) => e.transfer.id === transfer.id);
    expect(listed).toEqual([expect.objectContaining({ kind: 'reversed', hold: null, attempt: expect.objectContaining({ id: reversed!.id, state: 'reversed', resolution: null }) })]);
    expect(listed[0].attempt.steps.at(-1)).toMatchObject({ operator_code: 'DP00900001005', state: 'reversed' });
    expect(listed[0].since).toBe(reversed!.steps.at(-1)!.at);

    // Recording it paid by hand before staff chose to pay it again is refused in words, nothing changed.
    const byHand = await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/payout`, token: staff.token, payload: { reference: 'AIRTEL-BY-HAND-1' } });
    expect(byHand.statusCode).toBe(409);
    expect(byHand.json()).toMatchObject({ code: 'payout_reversed', error: expect.stringContaining('choose first to pay it again by hand') });
    expect(await transferOf(transfer.id)).toMatchObject({ payout_status: 'not_sent' });

    // Staff reject the transfer and refund the sender: it leaves the list, and the books stay balanced.
    const rejected = await t.request({ method: 'PATCH', url: `/api/transfer-requests/${transfer.id}`, token: staff.token, payload: { status: 'rejected', note: 'Airtel took the payout back' } });
    expect(rejected.statusCode).toBe(200);
    const refunded = await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/refund`, token: staff.token, payload: { reference: `REFUND-${transfer.reference}` } });
    expect(refunded.statusCode).toBe(200);
    expect(await transferOf(transfer.id)).toMatchObject({ status: 'rejected', payment_status: 'refunded', payout_status: 'not_sent' });
    const after = (await t.request({ method: 'GET', url: '/api/payout-exceptions', token: staff.token })).json().data;
    expect(after.some((e: { transfer: { id: string } }) => e.transfer.id === transfer.id)).toBe(false);
    expect((await balances(t.database.db)).totals.every((c) => Number(c.sum) === 0)).toBe(true);
  }, 60_000);
});
