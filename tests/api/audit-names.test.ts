import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { importListFiles, sdnCsv } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// The audit log as a compliance officer reads it (docs/rules/back-office.md#audit): each object
// by a human reference (a review by its sender's name and level, an alert by the name screened),
// the ids among the values by name (who proposed), and a reviewer's sitting over a sender's
// documents as one "documents viewed" row, not one per image.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager] = await Promise.all([
    createUser(t, { role: 'admin', full_name: 'Ada Admin' }), createUser(t, { role: 'manager', full_name: 'Mona Manager' }),
  ]);
  // Imported first: the import waits for every queued job, the passports' readings too.
  const { outcome } = await importListFiles(t, admin.token, 'ofac_sdn', { 'sdn.csv': sdnCsv([{ ent_num: 9202, name: 'KORVATH, Emil Ivanovich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 1961.' }]) });
  expect(outcome).toMatchObject({ state: 'done' });
});
afterAll(async () => { await t.close(); });

interface Entry {
  id: number; action: string; target_type: string; target_id: string | null; target_label: string | null; target_detail: string | null;
  actor: { profile_id: string | null }; before: Record<string, unknown> | null; after: Record<string, unknown> | null; names: Record<string, string>;
}
const audit = async (query: string) => {
  const res = await t.request({ method: 'GET', url: `/api/audit?${query}`, token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Entry[];
};

async function upload(user: TestUser, fields: Record<string, string>) {
  const file = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } } }).jpeg().toBuffer();
  const boundary = `----doc${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: image/jpeg\r\n\r\n`), file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.request({
    method: 'POST', url: '/api/kyc/documents', token: user.token, payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}
const view = async (user: TestUser, id: string) => expect((await t.request({ method: 'GET', url: `/api/kyc/documents/${id}`, token: user.token })).statusCode).toBe(200);

describe('a reviewer reading a sender\'s documents', () => {
  it('writes one "documents viewed" row per staff member and review for a sitting, named by the sender and level; a new sitting writes again', async () => {
    const sender = await createUser(t, { kyc_level: 0, full_name: 'Chloé Dupont' });
    // A first passport photo, superseded by a second one before the review is sent.
    const superseded = await upload(sender, { kind: 'passport' });
    const docs = [superseded, await upload(sender, { kind: 'passport' }), await upload(sender, { kind: 'selfie' })];
    const submitted = await t.request({ method: 'POST', url: '/api/kyc/reviews', token: sender.token, payload: { level: 2 } });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const reviewId = submitted.json().data.id as string;

    for (const id of [...docs, ...docs]) await view(manager, id);
    const viewed = () => audit(`action=kyc_document.view&target_id=${reviewId}`);
    let rows = await viewed();
    expect(rows.map((r) => [r.actor.profile_id, r.target_type, r.target_label, r.target_detail])).toEqual([
      [manager.id, 'kyc_review', `Chloé Dupont (${sender.email})`, '2'],
    ]);
    expect(rows[0]!.names).toEqual({ [sender.id]: `Chloé Dupont (${sender.email})` });

    // Another staff member's sitting is their own row.
    await view(admin, docs[1]!);
    rows = await viewed();
    expect(rows.map((r) => r.actor.profile_id)).toEqual([admin.id, manager.id]);

    // Thirty minutes on, the manager opens the documents again: a new sitting, a new row. (The
    // log is append-only; the test alone sets its trigger aside to move the first row back.)
    await t.database.pool.query(`alter table audit_log disable trigger user`);
    await t.database.pool.query(`update audit_log set created_at = created_at - interval '31 minutes' where action = 'kyc_document.view' and target_id = $1`, [reviewId]);
    await t.database.pool.query(`alter table audit_log enable trigger user`);
    await view(manager, docs[0]!);
    await view(manager, docs[2]!);
    expect((await viewed()).map((r) => r.actor.profile_id)).toEqual([manager.id, admin.id, manager.id]);
  });
});

describe('a screening alert\'s decisions', () => {
  it('name the alert by the person screened and the admin who proposed the match by name, not by id', async () => {
    const sender = await createUser(t, { full_name: 'Awa Sender' });
    const sent = await t.request({
      method: 'POST', url: '/api/payments/initiate', token: sender.token, payload: {
        source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '100', currency: 'EUR',
        destination_details: { recipient_name: 'Emil Ivanovich Korvath', recipient_phone: '+24177320001' },
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const alerts = (await t.request({ method: 'GET', url: '/api/screening/alerts?status=open', token: manager.token })).json().data as { id: string; transfer: { id: string } | null }[];
    const alert = alerts.find((a) => a.transfer?.id === sent.json().data.id)!;
    for (const [who, note] of [[admin, 'Same man'], [manager, 'Agreed']] as const) {
      const res = await t.request({ method: 'POST', url: `/api/screening/alerts/${alert.id}/decision`, token: who.token, payload: { decision: 'confirmed', note } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const [agreed, proposed] = await audit(`action=screening_alert.decide&target_id=${alert.id}`);
    for (const row of [agreed!, proposed!]) expect(row.target_label).toBe('Emil Ivanovich Korvath');
    expect(agreed!.after).toMatchObject({ status: 'confirmed', proposed_by: admin.id });
    expect(agreed!.names).toEqual({ [admin.id]: `Ada Admin (${admin.email})` });
    expect(proposed!.names).toEqual({});
  });
});
