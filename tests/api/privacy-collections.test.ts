import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankFiles } from '@server/db/schema.js';
import { eraseExpiredAccounts } from '@server/modules/privacy/service.js';
import { writePain001 } from '@server/modules/bank/pain001.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';
import { uniqueAddress } from './auth-fixtures.js';

// A sender's own data (docs/rules/your-data.md) reaching the payments asked from their wallet
// ("approve on my phone") and the bank files that paid their recipients: the download lists the
// collections; the erasure at the end of retention removes the numbers asked, the operators'
// messages and callbacks, and, in each stored bank file, their recipients' names and IBANs and
// their own name in the remittance, while the file's amounts, count and control sum stay.

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin' });
});
afterAll(async () => { await t?.close(); });

const request = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}), headers: { 'x-forwarded-for': uniqueAddress() } });
const erase = () => eraseExpiredAccounts({ db: t.database.db, log: pino({ level: 'silent' }) });
/** Closes the account and moves its closure past the 5 years kept. */
async function closedLongAgo(user: TestUser) {
  expect((await request('POST', '/api/profiles/me/close', user.token, { current_password: user.password })).statusCode).toBe(200);
  await t.database.db.execute(sql`update profiles set closed_at = now() - interval '5 years 1 day' where id = ${user.id}`);
}

describe("a sender's payments asked from their wallet", () => {
  it('are in their download (the wallet asked, where each ended, no call log), and erased with the operator\'s words after retention', async () => {
    const sender = await createUser(t, { full_name: 'Marie Nguema' });
    const transfer = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount: '50000', status: 'completed', paid: true, paidOut: true,
      recipient: { recipient_name: 'John Smith', recipient_email: 'john@example.test' } });
    const [refused, paid] = [crypto.randomUUID(), crypto.randomUUID()];
    const step = (state: string, message: string) => ({ at: new Date().toISOString(), call: 'collection', http_status: 200, operator_code: 'DP00800001001', message, state });
    await t.database.pool.query(`insert into collection_attempts (transfer_id, seq, rail, reference, state, reason, operator_id, amount, currency, msisdn, steps, sent_at, settled_at)
      values ($1, 1, 'airtel_gabon', $2, 'failed', 'refused', null, $4, 'XAF', '+24177123456', $5, now(), now()),
             ($1, 2, 'airtel_gabon', $3, 'succeeded', null, 'MP000777', $4, 'XAF', '+24177123456', $6, now(), now())`,
    [transfer.id, refused, paid, transfer.total, JSON.stringify([step('failed', 'Payer +24177123456 declined')]),
      JSON.stringify([step('succeeded', 'Paid XAF by 77123456 Marie Nguema')])]);
    await t.database.pool.query(`insert into rail_callbacks (operator, reference, body) values ('airtel', $1, $2)`,
      [paid, { transaction: { id: paid, message: 'Paid XAF 50000 by 77123456', status_code: 'TS' } }]);

    const exported = (await request('GET', '/api/profiles/me/export', sender.token)).json();
    expect(exported.transfers[0].collections).toEqual([
      expect.objectContaining({ rail: 'airtel_gabon', state: 'failed', reason: 'refused', reference: refused, msisdn: '+24177123456', amount: transfer.total, currency: 'XAF' }),
      expect.objectContaining({ rail: 'airtel_gabon', state: 'succeeded', reason: null, reference: paid, operator_id: 'MP000777', msisdn: '+24177123456' }),
    ]);
    expect(exported.transfers[0].collections[0]).not.toHaveProperty('steps');

    await closedLongAgo(sender);
    await erase();
    const attempts = (await t.database.pool.query('select * from collection_attempts where transfer_id = $1 order by seq', [transfer.id])).rows;
    expect(attempts).toEqual([
      expect.objectContaining({ msisdn: '', state: 'failed', reason: 'refused', reference: refused, amount: transfer.total }),
      expect.objectContaining({ msisdn: '', state: 'succeeded', operator_id: 'MP000777', reference: paid }),
    ]);
    expect(attempts[1].steps).toEqual([expect.objectContaining({ call: 'collection', operator_code: 'DP00800001001', message: null, state: 'succeeded' })]);
    const [callback] = (await t.database.pool.query('select body from rail_callbacks where reference = $1', [paid])).rows;
    expect(callback.body).toEqual({});
    expect(JSON.stringify([attempts, callback])).not.toMatch(/77123456|Nguema/);
  });
});

describe("a sender's payouts in a stored bank file", () => {
  it('lose the recipient\'s name and IBAN and the sender\'s name; the other payouts, the amounts, count and control sum stay, and the admin downloads the erased file', async () => {
    const [sender, other] = await Promise.all([createUser(t, { full_name: 'Awa Mbina' }), createUser(t, { full_name: 'Paul Obame' })]);
    const recipient = { recipient_name: 'Jean Dupont', account_holder: 'Jean Dupont', iban: 'FR7630006000011234567890189' };
    const mine = await createTransfer(t, sender.id, { direction: 'EUR_EUR', status: 'completed', paid: true, paidOut: true, recipient });
    const theirs = await createTransfer(t, other.id, { direction: 'EUR_EUR', status: 'completed', paid: true, paidOut: true,
      recipient: { recipient_name: 'Lea Martin', account_holder: 'Lea Martin', iban: 'DE89370400440532013000' } });
    const fileId = crypto.randomUUID();
    const xml = writePain001('BF-20260101-PRIVACY1', new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'),
      { iban: 'FR1420041010050500013M02606', bic: 'AGRIFRPP', name: 'Money Transfer SAS' }, [
        { endToEndId: mine.reference, amount: mine.payout_amount, creditorName: 'Jean Dupont', creditorIban: recipient.iban, creditorBic: null, remittance: `Awa Mbina ${mine.reference}` },
        { endToEndId: theirs.reference, amount: theirs.payout_amount, creditorName: 'Lea Martin', creditorIban: 'DE89370400440532013000', creditorBic: 'COBADEFFXXX', remittance: `Paul Obame ${theirs.reference}` },
      ]);
    await t.database.db.insert(bankFiles).values({ id: fileId, msg_id: 'BF-20260101-PRIVACY1', count: 2, control_sum: '0', xml, created_by: admin.id });
    await t.database.db.execute(sql`update bank_files set control_sum = ${mine.payout_amount}::numeric + ${theirs.payout_amount}::numeric where id = ${fileId}`);
    for (const [row, iban] of [[mine, recipient.iban], [theirs, 'DE89370400440532013000']] as const) {
      await t.database.pool.query(`insert into payout_attempts (transfer_id, seq, rail, reference, state, amount, currency, iban, bank_file_id)
        values ($1, 1, 'sepa_france', $2, 'succeeded', $3, 'EUR', $4, $5)`, [row.id, row.reference, row.payout_amount, iban, fileId]);
    }
    const [before] = await t.database.db.select().from(bankFiles).where(eq(bankFiles.id, fileId));

    await closedLongAgo(sender);
    await erase();

    const [after] = await t.database.db.select().from(bankFiles).where(eq(bankFiles.id, fileId));
    expect(after).toMatchObject({ msg_id: before!.msg_id, count: 2, control_sum: before!.control_sum });
    expect(after!.xml).not.toMatch(/Jean Dupont|FR7630006000011234567890189|Awa Mbina/);
    const entry = (ref: string) => new RegExp(`<CdtTrfTxInf>(?:(?!</CdtTrfTxInf>).)*<EndToEndId>${ref}</EndToEndId>(?:(?!</CdtTrfTxInf>).)*</CdtTrfTxInf>`).exec(after!.xml)?.[0];
    expect(entry(mine.reference)).toContain(`<InstdAmt Ccy="EUR">${mine.payout_amount}</InstdAmt>`);
    expect(entry(mine.reference)).toContain('<Cdtr><Nm>ERASED</Nm></Cdtr><CdtrAcct><Id><IBAN>XX00ERASED</IBAN></Id></CdtrAcct>');
    expect(entry(mine.reference)).toContain(`<Ustrd>${mine.reference}</Ustrd>`);
    // Another sender's payout, the header and its sums are as written.
    expect(entry(theirs.reference)).toContain('<Cdtr><Nm>Lea Martin</Nm></Cdtr><CdtrAcct><Id><IBAN>DE89370400440532013000</IBAN>');
    expect(entry(theirs.reference)).toContain(`<Ustrd>Paul Obame ${theirs.reference}</Ustrd>`);
    const header = (x: string) => x.slice(0, x.indexOf('<CdtTrfTxInf>'));
    expect(header(after!.xml)).toBe(header(before!.xml));

    const download = await request('GET', `/api/bank/files/${fileId}`, admin.token);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(after!.xml);
    const [attempt] = (await t.database.pool.query('select iban, reference, amount from payout_attempts where transfer_id = $1', [mine.id])).rows;
    expect(attempt).toEqual({ iban: '', reference: mine.reference, amount: mine.payout_amount });
  });
});
