import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopMrzOcr } from '@server/modules/kyc/mrz-ocr.js';
import { createUser, type TestUser } from '../support/factories.js';
import { td3Lines, type MrzPerson } from '../support/mrz-images.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// What the reviewer can trust in an identity review (docs/rules/know-your-sender.md#reviews):
// "ask for more" names the documents to send again and keeps the others accepted, so the sender
// sends only what is missing; the review marks each document current or superseded; and a
// document number already approved on another account is flagged with that account.

let t: TestApp;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp({ env: { DOCUMENT_KEY: randomBytes(32).toString('base64') } });
  manager = await createUser(t, { role: 'manager' });
});
afterAll(async () => { await t?.jobsDone(60_000); await t?.close(); await stopMrzOcr(); });

const photo = (shade: number) => sharp({ create: { width: 320, height: 200, channels: 3, background: { r: shade, g: 120, b: 200 } } }).jpeg().toBuffer();

async function upload(user: TestUser, fields: Record<string, string>): Promise<string> {
  const boundary = `----doc${randomBytes(6).toString('hex')}`;
  const parts = [
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), await photo(40), Buffer.from('\r\n'),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  const res = await t.request({
    method: 'POST', url: '/api/kyc/documents', token: user.token, payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

const submit = (user: TestUser) => t.request({ method: 'POST', url: '/api/kyc/reviews', token: user.token, payload: { level: 2 } });
const decide = (id: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/kyc/reviews/${id}/decision`, token: manager.token, payload });
const detail = async (id: string) => {
  const res = await t.request({ method: 'GET', url: `/api/kyc/reviews/${id}`, token: manager.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { documents: { id: string; kind: string; side: string | null; status: string; current: boolean; in_review: boolean; approved_elsewhere: unknown[] }[] };
};
const myDocuments = async (user: TestUser) =>
  (await t.request({ method: 'GET', url: '/api/kyc/documents', token: user.token })).json().data as { id: string; status: string }[];
const typeZone = async (doc: string, lines: string[]) => {
  const res = await t.request({ method: 'POST', url: `/api/kyc/documents/${doc}/mrz`, token: manager.token, payload: { lines } });
  expect(res.statusCode, res.body).toBe(200);
};

describe('ask for more: only what is asked again is sent again', () => {
  it('keeps the documents not asked again accepted; the sender sends only the missing one; the review marks the old one superseded', async () => {
    const sender = await createUser(t, { kyc_level: 0, full_name: 'Chloé Dupont' });
    const front = await upload(sender, { kind: 'id_card', side: 'front' });
    const back = await upload(sender, { kind: 'id_card', side: 'back' });
    const selfie = await upload(sender, { kind: 'selfie' });
    const first = (await submit(sender)).json().data.id as string;

    // The reviewer must say which documents to send again, among this review's.
    for (const resend of [[], [randomUUID()]]) {
      const refused = await decide(first, { decision: 'request_more', note: 'A sharper photo of the front, please.', resend });
      expect([refused.statusCode, refused.json().code]).toEqual([422, 'kyc_review_resend_required']);
    }
    const res = await decide(first, { decision: 'request_more', note: 'A sharper photo of the front, please.', resend: [front] });
    expect(res.statusCode, res.body).toBe(200);

    // The sender is asked for the front alone; the back and the selfie are kept, accepted.
    const status = (await t.request({ method: 'GET', url: '/api/kyc', token: sender.token })).json().data;
    expect(status.open_review).toMatchObject({ id: first, status: 'more_requested', missing: ['id_card_front'] });
    expect(Object.fromEntries((await myDocuments(sender)).map((d) => [d.id, d.status]))).toEqual({ [front]: 'rejected', [back]: 'accepted', [selfie]: 'accepted' });
    const early = await submit(sender);
    expect([early.statusCode, early.json().missing]).toEqual([422, ['id_card_front']]);

    const front2 = await upload(sender, { kind: 'id_card', side: 'front' });
    const second = await submit(sender);
    expect(second.statusCode, second.body).toBe(201);
    expect((await t.request({ method: 'GET', url: '/api/kyc', token: sender.token })).json().data.open_review).toMatchObject({ status: 'open', missing: [] });

    // The reviewer sees the new front current and the one it replaces superseded, just before it.
    const docs = (await detail(second.json().data.id)).documents;
    expect(docs.map((d) => [d.id, d.current, d.in_review])).toEqual([
      [front, false, false], [front2, true, true], [back, true, true], [selfie, true, true],
    ]);
    const audit = (await t.database.pool.query(`select after from audit_log where action = 'kyc_review.decide' and target_id = $1`, [first])).rows;
    expect(audit).toEqual([{ after: expect.objectContaining({ decision: 'request_more', resend: [front] }) }]);
  });

  it('marks the older of two documents of one kind and side in the same review superseded', async () => {
    const sender = await createUser(t, { kyc_level: 0 });
    const passport = await upload(sender, { kind: 'passport' });
    const selfie = await upload(sender, { kind: 'selfie' });
    const selfie2 = await upload(sender, { kind: 'selfie' });
    const id = (await submit(sender)).json().data.id as string;
    expect((await detail(id)).documents.map((d) => [d.id, d.current])).toEqual([[passport, true], [selfie, false], [selfie2, true]]);
  });
});

describe('a document number approved on another account', () => {
  const ZONE: MrzPerson = { surname: 'MARTIN', given: 'LEA', number: '19XK82731', nationality: 'FRA', birth: '910305', expiry: '330101', sex: 'F' };

  async function passportReview(full_name: string, person: MrzPerson) {
    const sender = await createUser(t, { kyc_level: 0, full_name, date_of_birth: '1991-03-05' });
    const passport = await upload(sender, { kind: 'passport' });
    await typeZone(passport, td3Lines(person));
    await upload(sender, { kind: 'selfie' });
    const review = (await submit(sender)).json().data.id as string;
    return { sender, passport, review };
  }

  it('is flagged on the document with the account that holds it; another number, or one not yet approved, is not', async () => {
    const first = await passportReview('Léa Martin', ZONE);
    const pending = await passportReview('Lea Martin', ZONE);
    // Not approved yet: nothing to flag on either.
    expect((await detail(pending.review)).documents.find((d) => d.id === pending.passport)!.approved_elsewhere).toEqual([]);
    expect((await decide(first.review, { decision: 'approve', note: '' })).statusCode).toBe(200);

    const flagged = (await detail(pending.review)).documents.find((d) => d.id === pending.passport)!;
    expect(flagged.approved_elsewhere).toEqual([{ profile_id: first.sender.id, full_name: 'Léa Martin', email: first.sender.email }]);
    // The approved account's own review does not flag itself.
    expect((await detail(first.review)).documents.find((d) => d.id === first.passport)!.approved_elsewhere).toEqual([]);
    const other = await passportReview('Léa Martin', { ...ZONE, number: '19XK82732' });
    expect((await detail(other.review)).documents.find((d) => d.id === other.passport)!.approved_elsewhere).toEqual([]);
  });
});
