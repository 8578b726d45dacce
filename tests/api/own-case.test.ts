import { randomBytes, randomInt } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@core/errors.js';
import { t as translate } from '@server/i18n.js';
import { createUser, type TestUser } from '../support/factories.js';
import { altCsv, addCsv, importListFiles, sdnCsv } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// No one decides on their own case (docs/rules/back-office.md#no-one-decides-on-their-own-case):
// a staff member who is also a sender may read, but not decide, a sanctions alert on their own
// transfer, their own monitoring case or their own identity review: 403 own_case, nothing changed
// (hold, case, level, audit). Another staff member decides the same case as before.

let t: TestApp;
let admin: TestUser;
/** The staff member who decides others' cases. */
let max: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, max] = await Promise.all([
    createUser(t, { role: 'admin', full_name: 'Ada Admin' }), createUser(t, { role: 'manager', full_name: 'Max Manager' }),
  ]);
});
afterAll(async () => { await t?.close(); });

type Method = 'GET' | 'POST';
const call = (who: TestUser, method: Method, url: string, payload?: object, lang = 'en') =>
  t.request({ method, url, token: who.token, headers: { 'accept-language': lang }, ...(payload ? { payload } : {}) });

/** A manager (second factor given) who also sends money, with an account old enough for no new-account rule. */
const staffSender = (full_name: string, fields: Record<string, unknown> = {}) =>
  createUser(t, { role: 'manager', full_name, created_at: new Date(Date.now() - 100 * 86_400_000), ...fields });

const phone = () => `+24177${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;

async function initiate(who: TestUser, amount: string, recipient: string) {
  const res = await call(who, 'POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount, currency: 'EUR',
    destination_details: { recipient_name: recipient, recipient_phone: phone() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; reference: string; on_hold?: boolean };
}

/** The answer is the listed refusal, in the caller's language. */
function expectOwnCase(res: Awaited<ReturnType<typeof call>>, lang: 'en' | 'fr' = 'en') {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toMatchObject({ code: 'own_case', error: translate(lang, ERRORS.own_case.key) });
}

const auditOf = async (targetId: string) =>
  (await t.database.pool.query<{ action: string; actor_profile_id: string }>('select action, actor_profile_id from audit_log where target_id = $1', [targetId])).rows;
const activeHolds = async (transferId: string) =>
  Number((await t.database.pool.query('select count(*) from compliance_holds where transfer_request_id = $1 and released_at is null', [transferId])).rows[0].count);

describe('a sanctions alert on a staff member\'s own transfer', () => {
  let mia: TestUser;
  beforeAll(async () => {
    mia = await staffSender('Mia Manager');
    const { outcome } = await importListFiles(t, admin.token, 'ofac_sdn', {
      'sdn.csv': sdnCsv([{ ent_num: 8101, name: 'KAZANTSEV, Borislav Yevgenyevich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 14 Mar 1961.' }]),
      'alt.csv': altCsv([]), 'add.csv': addCsv([]),
    });
    expect(outcome).toMatchObject({ state: 'done' });
  });

  type Alert = { id: string; status: string; confirmation_proposed: boolean; transfer: { id: string } | null; sender: { profile_id: string } };
  async function alertOn(transferId: string, viewer: TestUser = max): Promise<Alert> {
    const res = await call(viewer, 'GET', '/api/screening/alerts');
    expect(res.statusCode).toBe(200);
    return (res.json().data as Alert[]).find((a) => a.transfer?.id === transferId)!;
  }
  const decide = (who: TestUser, id: string, decision: string, lang = 'en') =>
    call(who, 'POST', `/api/screening/alerts/${id}/decision`, { decision, note: 'Not the listed man' }, lang);

  it('is shown to them, but clearing it as a false positive is refused, the hold kept and nothing audited; another staff member clears it', async () => {
    const transfer = await initiate(mia, '100', 'Borislav Kazantsev');
    expect(transfer.on_hold).toBe(true);
    const alert = await alertOn(transfer.id, mia);
    expect(alert).toMatchObject({ status: 'open', sender: { profile_id: mia.id } });

    expectOwnCase(await decide(mia, alert.id, 'false_positive'));
    expectOwnCase(await decide(mia, alert.id, 'false_positive', 'fr'), 'fr');
    expect(await alertOn(transfer.id)).toMatchObject({ status: 'open', confirmation_proposed: false });
    expect(await activeHolds(transfer.id)).toBe(1);
    expect(await auditOf(alert.id)).toEqual([]);

    const cleared = await decide(max, alert.id, 'false_positive');
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data).toMatchObject({ status: 'false_positive', decided_by: { profile_id: max.id } });
    expect(await activeHolds(transfer.id)).toBe(0);
    expect(await auditOf(alert.id)).toEqual([expect.objectContaining({ action: 'screening_alert.decide', actor_profile_id: max.id })]);
  });

  it('agreeing to confirm the match on their own transfer is refused too; another staff member agrees', async () => {
    const transfer = await initiate(mia, '100', 'Borislav Kazantsev');
    const alert = await alertOn(transfer.id);
    expect((await decide(admin, alert.id, 'confirmed')).json().data).toMatchObject({ status: 'open', confirmation_proposed: true });

    expectOwnCase(await decide(mia, alert.id, 'confirmed'));
    expect(await alertOn(transfer.id)).toMatchObject({ status: 'open', confirmation_proposed: true });
    expect((await auditOf(alert.id)).map((a) => a.actor_profile_id)).toEqual([admin.id]);

    const agreed = await decide(max, alert.id, 'confirmed');
    expect(agreed.statusCode, agreed.body).toBe(200);
    expect(agreed.json().data).toMatchObject({ status: 'confirmed', second_by: { profile_id: max.id } });
    expect(await activeHolds(transfer.id)).toBe(1);
  });

  it('an admin does not propose to confirm a match on their own transfer', async () => {
    const boss = await staffSender('Bea Boss', { role: 'admin' });
    const transfer = await initiate(boss, '100', 'Borislav Kazantsev');
    const alert = await alertOn(transfer.id);
    expectOwnCase(await decide(boss, alert.id, 'confirmed'));
    expect(await alertOn(transfer.id)).toMatchObject({ status: 'open', confirmation_proposed: false });
    expect(await auditOf(alert.id)).toEqual([]);
  });
});

describe('a staff member\'s own monitoring case', () => {
  let moe: TestUser;
  let caseId: string;
  let held: { id: string; reference: string };
  type Case = { id: string; status: string; sender: { profile_id: string } };
  const transition = (who: TestUser, body: object) => call(who, 'POST', `/api/monitoring/cases/${caseId}/transition`, body);
  const detail = async (who: TestUser = max) => {
    const res = await call(who, 'GET', `/api/monitoring/cases/${caseId}`);
    expect(res.statusCode).toBe(200);
    return res.json().data as Case & { transfers: { id: string; held: boolean }[] };
  };

  beforeAll(async () => {
    moe = await staffSender('Moe Manager');
    // Three transfers just under 1,000 EUR within 3 days: structuring, which holds the third.
    await initiate(moe, '910', 'Rose Ondo');
    await initiate(moe, '920', 'Rose Ondo');
    held = await initiate(moe, '930', 'Rose Ondo');
    const cases = (await call(max, 'GET', '/api/monitoring/cases?status=open')).json().data as Case[];
    caseId = cases.find((c) => c.sender.profile_id === moe.id)!.id;
  });

  it('is shown to them, but no step is theirs: refused, the case still open, its hold kept, nothing audited', async () => {
    expect((await detail(moe)).status).toBe('open');
    expectOwnCase(await transition(moe, { to: 'investigating', note: 'Looked at it myself.' }));
    expectOwnCase(await transition(moe, { to: 'closed', outcome: 'false_positive', note: 'My own salary.' }));
    const after = await detail();
    expect(after.status).toBe('open');
    expect(after.transfers.find((x) => x.id === held.id)!.held).toBe(true);
    expect(await activeHolds(held.id)).toBe(1);
    expect(await auditOf(caseId)).toEqual([]);
  });

  it('another staff member takes the steps and closes it, releasing the hold', async () => {
    expect((await transition(max, { to: 'investigating', note: 'Asked for payslips.' })).statusCode).toBe(200);
    expectOwnCase(await transition(moe, { to: 'closed', outcome: 'false_positive', note: 'My own salary.' }));
    const closed = await transition(max, { to: 'closed', outcome: 'false_positive', note: 'Payslips match.' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data).toMatchObject({ status: 'closed', outcome: 'false_positive', reviewer: { profile_id: max.id } });
    expect(await activeHolds(held.id)).toBe(0);
    expect((await auditOf(caseId)).map((a) => a.actor_profile_id)).toEqual([max.id, max.id]);
  });

  it('nor a case whose alert was raised on a transfer they sent, whoever the case is about', async () => {
    const other = await createUser(t, { full_name: 'Oscar Other' });
    const made = await t.database.pool.query<{ id: string }>('insert into monitoring_cases (profile_id) values ($1) returning id', [other.id]);
    const otherCase = made.rows[0]!.id;
    await t.database.pool.query(`insert into monitoring_alerts (rule, evidence, transfer_request_id, profile_id, case_id, held)
      values ('velocity', '{"compared": [], "transfers": []}'::jsonb, $1, $2, $3, false)`, [held.id, other.id, otherCase]);
    const res = await call(moe, 'POST', `/api/monitoring/cases/${otherCase}/transition`, { to: 'investigating', note: 'x' });
    expectOwnCase(res);
    const status = await t.database.pool.query('select status from monitoring_cases where id = $1', [otherCase]);
    expect(status.rows[0].status).toBe('open');
  });
});

describe('a staff member\'s own identity review', () => {
  let kim: TestUser;
  let reviewId: string;
  const photo = () => sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } } }).jpeg().toBuffer();
  async function upload(who: TestUser, fields: Record<string, string>) {
    const boundary = `----doc${randomBytes(6).toString('hex')}`;
    const payload = Buffer.concat([
      ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: application/octet-stream\r\n\r\n`), await photo(), Buffer.from('\r\n'),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const res = await t.request({
      method: 'POST', url: '/api/kyc/documents', token: who.token, payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const decide = (who: TestUser, decision: string, note = '') => call(who, 'POST', `/api/kyc/reviews/${reviewId}/decision`, { decision, note });
  const level = async () => (await t.database.pool.query('select kyc_level from profiles where id = $1', [kim.id])).rows[0].kyc_level as number;

  beforeAll(async () => {
    kim = await staffSender('Kim Manager', { kyc_level: 1 });
    await upload(kim, { kind: 'id_card', side: 'front' });
    await upload(kim, { kind: 'id_card', side: 'back' });
    await upload(kim, { kind: 'selfie' });
    const res = await call(kim, 'POST', '/api/kyc/reviews', { level: 2 });
    expect(res.statusCode, res.body).toBe(201);
    reviewId = res.json().data.id;
  });

  it('is shown to them, but approving, rejecting or asking more of their own is refused: the level unchanged, nothing audited', async () => {
    expect((await call(kim, 'GET', `/api/kyc/reviews/${reviewId}`)).statusCode).toBe(200);
    expectOwnCase(await decide(kim, 'approve'));
    expectOwnCase(await decide(kim, 'reject', 'Blurred'));
    expectOwnCase(await decide(kim, 'request_more', 'The back again'));
    expect(await level()).toBe(1);
    expect((await call(max, 'GET', `/api/kyc/reviews/${reviewId}`)).json().data).toMatchObject({ status: 'open', decided_by: null });
    expect(await auditOf(reviewId)).toEqual([]);
    const documents = await t.database.pool.query('select distinct status from kyc_documents where profile_id = $1', [kim.id]);
    expect(documents.rows.map((r) => r.status)).not.toContain('accepted');
  });

  it('nor typing the machine-readable zone of their own document, which the reviewer relies on', async () => {
    const { rows } = await t.database.pool.query(`select id, mrz from kyc_documents where profile_id = $1 and kind = 'id_card' and side = 'back'`, [kim.id]);
    const lines = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
    expectOwnCase(await call(kim, 'POST', `/api/kyc/documents/${rows[0].id}/mrz`, { lines }));
    const after = await t.database.pool.query('select mrz from kyc_documents where id = $1', [rows[0].id]);
    expect(after.rows[0].mrz).toEqual(rows[0].mrz);
    expect(await auditOf(rows[0].id)).toEqual([]);
  });

  it('another staff member approves it: the level rises', async () => {
    const res = await decide(max, 'approve');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'approved', decided_by: max.id });
    expect(await level()).toBe(2);
    expect(await auditOf(reviewId)).toEqual([expect.objectContaining({ action: 'kyc_review.decide', actor_profile_id: max.id })]);
    await t.jobsDone(60_000); // the ID card photos queue MRZ reading, and the decision its e-mail
  });
});
