import { readFileSync } from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { auditLog, bankFiles, payoutAttempts, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { cutoffCron } from '@server/modules/bank/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// SEPA payout files (docs/rules/bank-rail.md#bank-files): payouts to French accounts whose every
// control has cleared, written as pain.001.001.09 and checked against the EPC's published schema.

const BANK = { BANK_IBAN: 'FR76 3000 4000 0312 3456 7890 143', BANK_BIC: 'BNPAFRPP', BANK_ACCOUNT_NAME: 'Money Transfer SAS' };
const XSD = readFileSync('tests/fixtures/iso20022/pain.001.001.09.xsd', 'utf8');

let t: TestApp;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

/** The e-mails the app sent, as its mailer was given them. */
const mails: { to: string; subject: string; text: string }[] = [];
const mailer = { send: async (m: { to: string; subject: string; text: string }) => { mails.push(m); }, close: () => undefined };

beforeAll(async () => {
  t = await createTestApp({ env: BANK, mailer });
  [sender, staff, admin] = await Promise.all([createUser(t, { full_name: 'Awa Diallo' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
}, 60_000);
afterAll(async () => { await t.close(); });

const db = () => t.database.db;
const railOn = (enabled: boolean) => t.request({ method: 'PUT', url: '/api/rails/sepa_france', token: admin.token, payload: { enabled } });
const makeFile = (token = admin.token) => t.request({ method: 'POST', url: '/api/bank/files', token });
const download = (id: string, token = admin.token) => t.request({ method: 'GET', url: `/api/bank/files/${id}`, token });
const recipient = { account_holder: 'Élodie Martin', recipient_name: 'Élodie Martin', iban: 'FR7630006000011234567890189' };
/** A paid EUR → French account transfer, every control cleared. */
const paidTransfer = (amount = '250') => createTransfer(t, sender.id, { direction: 'EUR_EUR', paid: true, amount, recipient });
const attemptsOf = (id: string) => db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));

async function validate(xml: string) {
  return validateXML({ xml: { fileName: 'file.xml', contents: xml }, schema: { fileName: 'pain.001.001.09.xsd', contents: XSD } });
}

/** The texts of the elements named `name`, read with an XML parser. */
function texts(xml: string, name: string): string[] {
  const found: string[] = [];
  const parser = new SaxesParser();
  let inside = false;
  parser.on('opentag', (tag) => { inside = tag.name === name; if (inside) found.push(''); });
  parser.on('text', (text) => { if (inside) found[found.length - 1] += text; });
  parser.on('closetag', () => { inside = false; });
  parser.write(xml).close();
  return found;
}

/** Cents of a decimal euro text, as a whole number. */
const cents = (text: string) => BigInt(text.replace('.', ''));

beforeEach(async () => {
  // Every test starts with nothing ready: what earlier tests left is cancelled or paid.
  await railOn(true);
  await db().update(transferRequests).set({ status: 'cancelled' }).where(eq(transferRequests.status, 'pending'));
});

describe('the sepa_france rail', () => {
  it('is listed beside the mobile rails, configured by the BANK_ variables, switched by an admin', async () => {
    const list = (await t.request({ method: 'GET', url: '/api/rails', token: staff.token })).json().data;
    expect(list.find((r: { id: string }) => r.id === 'sepa_france')).toMatchObject({ configured: true });
    const bare = await createTestApp();
    try {
      const otherAdmin = await createUser(bare, { role: 'admin' });
      const rails = (await bare.request({ method: 'GET', url: '/api/rails', token: otherAdmin.token })).json().data;
      expect(rails.find((r: { id: string }) => r.id === 'sepa_france')).toMatchObject({ configured: false, enabled: false });
      const on = await bare.request({ method: 'PUT', url: '/api/rails/sepa_france', token: otherAdmin.token, payload: { enabled: true } });
      expect(on.json().code).toBe('rail_not_configured');
      expect((await bare.request({ method: 'POST', url: '/api/bank/files', token: otherAdmin.token })).json().code).toBe('rail_not_configured');
    } finally {
      await bare.close();
    }
  });

  it('makes no file while the rail is off, nor when nothing is ready (409)', async () => {
    await railOn(false);
    const off = await makeFile();
    expect(off.statusCode).toBe(409);
    expect(off.json().code).toBe('bank_rail_off');
    await railOn(true);
    await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '80', recipient }); // not paid yet
    const none = await makeFile();
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'bank_nothing_ready' });
    expect(none.json().error).toContain('ready');
  });

  it('is for the admin alone', async () => {
    expect((await makeFile(staff.token)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/bank/files', token: sender.token })).statusCode).toBe(403);
  });
});

describe('a bank file', () => {
  it('for one transfer: valid pain.001.001.09, the recipient, the exact amount, the reference as EndToEndId; the transfer sent to the bank', async () => {
    const transfer = await paidTransfer('250');
    const made = await makeFile();
    expect(made.statusCode).toBe(201);
    const { id, count, control_sum } = made.json().data;
    expect({ count, control_sum }).toEqual({ count: 1, control_sum: transfer.payout_amount });

    const file = await download(id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^application\/xml/);
    const xml = file.body;
    expect(await validate(xml)).toMatchObject({ valid: true, errors: [] });
    expect(texts(xml, 'EndToEndId')).toEqual([transfer.reference]);
    expect(texts(xml, 'InstdAmt')).toEqual([transfer.payout_amount]);
    expect(texts(xml, 'IBAN')).toEqual(['FR7630004000031234567890143', 'FR7630006000011234567890189']);
    expect(texts(xml, 'Nm')).toEqual(['Money Transfer SAS', 'Money Transfer SAS', 'Elodie Martin']);
    expect(texts(xml, 'Ustrd')[0]).toContain(transfer.reference);

    const [attempt] = await attemptsOf(transfer.id);
    expect(attempt).toMatchObject({ rail: 'sepa_france', state: 'pending', reference: transfer.reference, bank_file_id: id, iban: 'FR7630006000011234567890189' });
    const [row] = await db().select().from(transferRequests).where(eq(transferRequests.id, transfer.id));
    expect(row!.status).toBe('processing');
    const [msg] = await db().select({ msg_id: bankFiles.msg_id }).from(bankFiles).where(eq(bankFiles.id, id));
    const steps = await db().select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, transfer.id));
    expect(steps.at(-1)).toMatchObject({ to_status: 'processing', actor_profile_id: null, note: msg!.msg_id });

    // The sender is told by e-mail that the transfer is being processed.
    await t.jobsDone();
    const told = mails.filter((m) => m.to === sender.email && m.text.includes(transfer.reference));
    expect(told.at(-1)?.text).toMatch(/processing/i);
    // The file's e-mail job run again (a worker killed after its commit, before the job ended): no second e-mail.
    await db().execute(sql`select graphile_worker.add_job('bank_file_mails', json_build_object('file_id', ${id}::text))`);
    await t.jobsDone();
    expect(mails.filter((m) => m.to === sender.email && m.text.includes(transfer.reference))).toHaveLength(told.length);

    // Each download is audited.
    await download(id);
    const audited = await db().select().from(auditLog).where(eq(auditLog.action, 'bank_file.download'));
    expect(audited.filter((a) => a.target_id === id)).toHaveLength(2);
    expect((await download(id, staff.token)).statusCode).toBe(403);
    expect((await download('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);

    // Never in two live files.
    expect((await makeFile()).json().code).toBe('bank_nothing_ready');
  });

  it('for 1,000 transfers of random amounts: valid, and its control sum exact to the cent', async () => {
    const made: { payout_amount: string }[] = [];
    for (let i = 0; i < 1000; i++) {
      const euros = 1 + Math.floor(Math.random() * 899);
      const amount = `${euros}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
      made.push(await paidTransfer(amount));
    }
    const expected = made.reduce((sum, m) => sum + cents(m.payout_amount), 0n);
    const res = await makeFile();
    expect(res.statusCode).toBe(201);
    const { id, count, control_sum } = res.json().data;
    expect(count).toBe(1000);
    expect(cents(control_sum)).toBe(expected);
    const xml = (await download(id)).body;
    expect(await validate(xml)).toMatchObject({ valid: true, errors: [] });
    // Both control sums (group header and payment block) and the amounts themselves.
    expect(texts(xml, 'CtrlSum').map(cents)).toEqual([expected, expected]);
    expect(texts(xml, 'InstdAmt').reduce((sum, a) => sum + cents(a), 0n)).toBe(expected);
    expect(texts(xml, 'NbOfTxs')).toEqual(['1000', '1000']);
  }, 120_000);

  it('asked twice at once: one file takes the ready transfers, the other finds nothing ready; each transfer in one live file', async () => {
    const ready = await Promise.all([paidTransfer('31'), paidTransfer('32'), paidTransfer('33')]);
    const answers = await Promise.all([makeFile(), makeFile()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('bank_nothing_ready');
    const made = answers.find((a) => a.statusCode === 201)!.json().data;
    expect(made.count).toBe(3);
    for (const transfer of ready) {
      const attempts = await attemptsOf(transfer.id);
      expect(attempts.map((a) => [a.state, a.bank_file_id])).toEqual([['pending', made.id]]);
    }
  });

  it('cancelled by staff with a reason: its transfers go into the next file, under a new EndToEndId; audited; then closed', async () => {
    const transfer = await paidTransfer('90');
    const first = (await makeFile()).json().data;
    const cancel = (id: string, reason: unknown) => t.request({ method: 'POST', url: `/api/bank/files/${id}/cancel`, token: admin.token, payload: { reason } });
    expect((await cancel(first.id, '')).statusCode).toBe(400);
    const cancelled = await cancel(first.id, 'The bank refused the upload: file never executed');
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data).toMatchObject({ cancel_reason: 'The bank refused the upload: file never executed', waiting: 0 });
    expect((await cancel(first.id, 'again')).json().code).toBe('bank_file_closed');
    const audited = await db().select().from(auditLog).where(eq(auditLog.action, 'bank_file.cancel'));
    expect(audited.at(-1)).toMatchObject({ target_id: first.id, actor_profile_id: admin.id });

    const second = (await makeFile()).json().data;
    expect(second.count).toBe(1);
    const attempts = await attemptsOf(transfer.id);
    expect(attempts.map((a) => [a.state, a.reference, a.bank_file_id])).toEqual([
      ['failed', transfer.reference, first.id], ['pending', `${transfer.reference}-2`, second.id],
    ]);
    const list = (await t.request({ method: 'GET', url: '/api/bank/files', token: admin.token })).json().data;
    expect(list[0]).toMatchObject({ id: second.id, count: 1, waiting: 1, cancelled_at: null });
  });
});

describe('the daily cut-off (BANK_FILE_CUTOFF)', () => {
  it('the scheduled job gathers what is ready into a file, audited as the system; nothing ready, no file and no failure', async () => {
    expect(cutoffCron('15:05')).toBe('5 15 * * *');
    const cut = await createTestApp({ env: { ...BANK, BANK_FILE_CUTOFF: '15:05' }, mailer });
    try {
      const [owner, boss] = await Promise.all([createUser(cut, { full_name: 'Awa Diallo' }), createUser(cut, { role: 'admin' })]);
      await cut.request({ method: 'PUT', url: '/api/rails/sepa_france', token: boss.token, payload: { enabled: true } });
      const transfer = await createTransfer(cut, owner.id, { direction: 'EUR_EUR', paid: true, amount: '70', recipient });
      const runCutoff = async () => {
        await cut.database.db.execute(sql`select graphile_worker.add_job('bank_file_cutoff', '{}'::json)`);
        await cut.jobsDone();
      };
      await runCutoff();
      const files = await cut.database.db.select().from(bankFiles);
      expect(files.map((f) => [f.count, f.control_sum, f.created_by])).toEqual([[1, transfer.payout_amount, null]]);
      const [attempt] = await cut.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id));
      expect(attempt).toMatchObject({ state: 'pending', bank_file_id: files[0]!.id, reference: transfer.reference });
      const audited = await cut.database.db.select().from(auditLog).where(eq(auditLog.action, 'bank_file.create'));
      expect(audited.map((a) => [a.target_id, a.actor_profile_id])).toEqual([[files[0]!.id, null]]);

      await runCutoff();
      expect(await cut.database.db.select().from(bankFiles)).toHaveLength(1);
      const parked = await cut.request({ method: 'GET', url: '/api/admin/jobs', token: boss.token });
      expect(JSON.stringify(parked.json())).not.toContain('bank_file_cutoff');
    } finally {
      await cut.close();
    }
  }, 60_000);
});
