import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, operatorStatementRows, payoutAttempts } from '@server/db/schema.js';
import { startPayout } from '@server/modules/rails/service.js';
import { encodeWindows1252 } from '@server/lib/windows-1252.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Operators' statements (docs/rules/payout-rails.md#operator-statements): an Airtel export
// imported on the reconciliation board, its rows matched with our payout attempts by our
// reference or Airtel's transaction id, and every difference on either side listed.

let t: TestApp;
let airtel: AirtelPeer;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  t = await createTestApp({
    env: {
      ...airtel.env(),
    },
  });
  [sender, staff, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
  await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
}, 60_000);
afterAll(async () => {
  await t.close();
  await airtel.stop();
});

const ctx = () => ({ config: t.config, db: t.database.db });
/** A transfer paid out through Airtel Gabon; its attempt as written. */
async function paidOut(fail = false) {
  const paid = await createTransfer(t, sender.id, { paid: true, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
  if (fail) airtel.scriptNext({ outcome: 'fail', code: 'DP00900001013' });
  expect(await startPayout(ctx(), paid.id)).toBe('sent');
  const [attempt] = await t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, paid.id));
  return { transfer: paid, attempt: attempt! };
}
const francs = (amount: string) => amount.replace(/\.00$/, '');
const today = new Date().toISOString().slice(0, 10).split('-').reverse().join('/');
const importCsv = (csv: string | Uint8Array, token = admin.token, rail = 'airtel_gabon') => t.request({
  method: 'POST', url: `/api/rails/${rail}/statements?filename=airtel-export.csv`, token, payload: Buffer.from(csv), headers: { 'content-type': 'text/csv' },
});

describe("an operator's statement on the reconciliation board", () => {
  it('matches rows by our reference or the operator id and lists each difference; the same file again changes nothing', async () => {
    const agreed = await paidOut();
    const otherAmount = await paidOut();
    const missing = await paidOut();
    const failed = await paidOut(true);
    expect(failed.attempt.state).toBe('failed');

    // Airtel's portal export: its own headers, day-first dates, debits negative.
    const csv = [
      'Transaction ID;External Reference;Transaction Date;MSISDN;Amount;Currency;Status;Description',
      `${agreed.attempt.operator_id};${agreed.attempt.reference};${today} 10:00:00;24177123456;-${francs(agreed.attempt.amount)};XAF;TS;Virement à Marie`,
      `${otherAmount.attempt.operator_id};;${today} 10:05:00;24177123456;-${Number(francs(otherAmount.attempt.amount)) + 100};XAF;TS;`,
      `AT-UNKNOWN-1;;${today} 11:00:00;24177000000;-5000;XAF;TS;Not one of ours`,
      `;${failed.attempt.reference};${today} 12:00:00;24177123456;-${francs(failed.attempt.amount)};XAF;TS;`,
    ].join('\r\n');
    // Saved by a spreadsheet on Windows: Windows-1252, "à" one byte.
    const bytes = encodeWindows1252(csv);
    const first = await importCsv(bytes);
    expect(first.statusCode).toBe(201);
    const result = first.json().data;
    expect(result).toMatchObject({ already_imported: false, matched: 3, currency: 'XAF', statement: { rail: 'airtel_gabon', filename: 'airtel-export.csv', rows: 4 } });
    const kinds = (result.differences as { kind: string; reference: string | null; transfer_reference: string | null }[])
      .map((d) => [d.kind, d.reference, d.transfer_reference]);
    expect(kinds).toEqual(expect.arrayContaining([
      ['amount_differs', otherAmount.attempt.reference, otherAmount.transfer.reference],
      ['not_ours', 'AT-UNKNOWN-1', null],
      ['state_differs', failed.attempt.reference, failed.transfer.reference],
      ['not_on_statement', missing.attempt.reference, missing.transfer.reference],
    ]));
    expect(kinds).toHaveLength(4);
    const amountDiffers = result.differences.find((d: { kind: string }) => d.kind === 'amount_differs');
    expect(amountDiffers.ours.amount).toBe(francs(otherAmount.attempt.amount));
    expect(amountDiffers.theirs.amount).toBe(String(Number(francs(otherAmount.attempt.amount)) + 100));
    expect(result.differences.find((d: { kind: string }) => d.kind === 'state_differs')).toMatchObject({ ours: { state: 'failed' }, theirs: { state: 'succeeded', line: 5 } });

    const rows = async () => (await t.database.db.select({ n: count() }).from(operatorStatementRows))[0]!.n;
    const audits = async () => (await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'operator_statement.import')))[0]!.n;
    expect(await rows()).toBe(4);
    expect(await audits()).toBe(1);

    const again = await importCsv(bytes);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ already_imported: true, statement: { id: result.statement.id }, matched: 3 });
    expect(await rows()).toBe(4);
    expect(await audits()).toBe(1);

    const list = await t.request({ method: 'GET', url: '/api/rails/airtel_gabon/statements', token: admin.token });
    expect(list.json().data.map((s: { id: string }) => s.id)).toEqual([result.statement.id]);
    const shown = await t.request({ method: 'GET', url: `/api/operator-statements/${result.statement.id}`, token: admin.token });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data.differences).toHaveLength(4);
  });

  it("reads MTN's export headers too, and refuses a file with wrong rows whole, naming each line", async () => {
    const wrong = 'Id,External Transaction Id,Date,Status,Amount,Currency\n1,ref-1,2026-11-28 10:00,SUCCESSFUL,2500,XAF\n2,ref-2,2026-11-31,DONE,abc,RWF\n';
    const refused = await importCsv(wrong);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('csv_invalid');
    expect(Object.keys(refused.json().fields)).toEqual(['lines.3.amount', 'lines.3.currency', 'lines.3.status', 'lines.3.date']);
    expect(refused.json().fields['lines.3.status']).toBe('Line 3: the status is not one the operators use (TS, TF, TIP, SUCCESSFUL, FAILED, PENDING…).');
    expect((await importCsv('Id,Date\n1,2026-11-28\n')).json().code).toBe('csv_invalid');
  });

  it('is for the admin alone', async () => {
    const csv = `reference,amount,currency,status,date\nX,10,XAF,TS,2026-11-28\n`;
    expect((await importCsv(csv, staff.token)).statusCode).toBe(403);
    expect((await importCsv(csv, sender.token)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/rails/airtel_gabon/statements', token: staff.token })).statusCode).toBe(403);
    expect((await importCsv(csv, admin.token, 'sepa_france')).statusCode).toBe(404);
  });
});
