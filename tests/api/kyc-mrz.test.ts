import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@server/logger.js';
import { runMrzReadJob } from '@server/modules/kyc/mrz.js';
import { stopMrzOcr } from '@server/modules/kyc/mrz-ocr.js';
import { createUser, type TestUser } from '../support/factories.js';
import { documentPhoto, td1Lines, td3Lines, type MrzPerson } from '../support/mrz-images.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// The machine-readable zone of an identity document (docs/rules/know-your-sender.md#documents):
// photos of a generated passport (TD3) and ID card (TD1) are uploaded through the API, read by the
// durable job (OCR with the traineddata installed from npm, no network), their check digits
// verified and the name, date of birth and expiry compared with the profile; a reviewer types the
// zone of a photo that cannot be read. Nothing of a document reaches the logs.

const logs: string[] = [];
const sink = new Writable({ write(chunk: Buffer, _enc, done) { logs.push(chunk.toString()); done(); } });

let t: TestApp;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp({ env: { DOCUMENT_KEY: randomBytes(32).toString('base64') }, logger: createLogger({ LOG_LEVEL: 'debug' }, sink) });
  manager = await createUser(t, { role: 'manager' });
});
afterAll(async () => { await t?.close(); await stopMrzOcr(); });

function form(fields: Record<string, string>, data: Buffer) {
  const boundary = `----mrz${randomBytes(6).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() }, payload: Buffer.concat(parts) };
}

async function uploaded(user: TestUser, fields: Record<string, string>, photo: Buffer): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/kyc/documents', token: user.token, ...form(fields, photo) });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

const mrzOf = async (id: string) => (await t.database.pool.query('select mrz from kyc_documents where id = $1', [id])).rows[0].mrz;

const MARIE: MrzPerson = { surname: 'DUPONT', given: 'MARIE CLAIRE', number: '12AB34567', nationality: 'FRA', birth: '900215', expiry: '320101', sex: 'F' };
const marie = () => createUser(t, { full_name: 'Marie-Claire Dupont', date_of_birth: '1990-02-15' });

describe('the MRZ read from a photo after upload', () => {
  it('reads a passport (2 × 44): every check digit valid, name and date of birth equal to the profile, not expired', async () => {
    const user = await marie();
    const id = await uploaded(user, { kind: 'passport' }, await documentPhoto(td3Lines(MARIE), 'PASSPORT / PASSEPORT'));
    const started = Date.now();
    await t.jobsDone(60_000);
    console.info(`MRZ job for one passport photo: ${Date.now() - started} ms`);
    expect(await mrzOf(id)).toMatchObject({
      status: 'read', format: 'TD3', valid: true, lines: td3Lines(MARIE),
      checks: { document_number: true, birth_date: true, expiry_date: true, personal_number: true, composite: true },
      document_number: '12AB34567', surname: 'DUPONT', given_names: 'MARIE CLAIRE', nationality: 'FRA',
      birth_date: '1990-02-15', expiry_date: '2032-01-01', expired: false, name_matches_profile: true, birth_date_matches_profile: true,
    });
  });

  it('reads an ID card on its back (3 × 30); its front, which carries no zone, is not read at all', async () => {
    const user = await marie();
    const back = await uploaded(user, { kind: 'id_card', side: 'back' }, await documentPhoto(td1Lines(MARIE), 'CARTE NATIONALE D’IDENTITÉ'));
    const front = await uploaded(user, { kind: 'id_card', side: 'front' },
      await sharp({ create: { width: 900, height: 570, channels: 3, background: { r: 220, g: 210, b: 190 } } }).jpeg().toBuffer());
    await t.jobsDone(60_000);
    expect(await mrzOf(back)).toMatchObject({
      status: 'read', format: 'TD1', valid: true, lines: td1Lines(MARIE),
      checks: { document_number: true, birth_date: true, expiry_date: true, composite: true },
      document_number: '12AB34567', surname: 'DUPONT', given_names: 'MARIE CLAIRE', birth_date: '1990-02-15', expiry_date: '2032-01-01',
      expired: false, name_matches_profile: true, birth_date_matches_profile: true,
    });
    // Not `unreadable` (which would ask the reviewer to type a zone): nothing, as for a selfie.
    expect(await mrzOf(front)).toBeNull();
    // A reading queued before only backs were read finds nothing to read on a front either.
    await runMrzReadJob({ db: t.database.db, config: t.config }, { document_id: front });
    expect(await mrzOf(front)).toBeNull();
  });

  it('does not read a residence permit\'s front, even with a zone printed on it: only its back carries one', async () => {
    const user = await marie();
    const front = await uploaded(user, { kind: 'residence_permit', side: 'front' }, await documentPhoto(td1Lines(MARIE), 'TITRE DE SÉJOUR'));
    await t.jobsDone(60_000);
    expect(await mrzOf(front)).toBeNull();
  });

  it('says a zone failing a check digit could not be read (never "wrong", nor a name that differs), and flags an expired document', async () => {
    const user = await createUser(t, { full_name: 'Jean Ndong', date_of_birth: '1985-07-30' });
    const wrong = await uploaded(user, { kind: 'passport' }, await documentPhoto(td3Lines({ ...MARIE, wrongNumberCheck: true }), 'PASSPORT'));
    const expired = await uploaded(user, { kind: 'residence_permit', side: 'back' },
      await documentPhoto(td1Lines({ ...MARIE, surname: 'NDONG', given: 'JEAN', birth: '850730', expiry: '240315' }), 'TITRE DE SÉJOUR'));
    await t.jobsDone(60_000);
    // As read from a photo, a check digit that fails is as likely a misreading: nothing of it is kept.
    expect(await mrzOf(wrong)).toMatchObject({
      status: 'unreadable', lines: [], valid: false, checks: {}, surname: null, name_matches_profile: null, birth_date_matches_profile: null,
    });
    expect(await mrzOf(expired)).toMatchObject({
      status: 'read', valid: true, surname: 'NDONG', given_names: 'JEAN', expiry_date: '2024-03-15', expired: true, name_matches_profile: true, birth_date_matches_profile: true,
    });
  });

  it('writes nothing of a document to the logs', () => {
    const all = logs.join('');
    for (const secret of ['DUPONT', '12AB34567', 'NDONG', '900215', 'P<FRA']) expect(all).not.toContain(secret);
  });
});

describe('a reviewer types the zone', () => {
  it('checks the typed lines the same way, marks them typed by the reviewer and audits it', async () => {
    const user = await marie();
    const id = await uploaded(user, { kind: 'passport' },
      await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 200, g: 200, b: 200 } } }).jpeg().toBuffer());
    await t.jobsDone(60_000);
    expect((await mrzOf(id)).status).toBe('unreadable');
    // Typed with spaces and in lower case, as a person copies it.
    const lines = td3Lines(MARIE).map((l) => l.toLowerCase().replace(/(.{11})/g, '$1 '));
    const res = await t.request({ method: 'POST', url: `/api/kyc/documents/${id}/mrz`, token: manager.token, headers: { 'x-forwarded-for': uniqueAddress() }, payload: { lines } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'typed', valid: true, typed_by: manager.id, lines: td3Lines(MARIE), name_matches_profile: true, expired: false });
    expect(await mrzOf(id)).toMatchObject({ status: 'typed', valid: true, typed_by: manager.id });
    const audit = (await t.database.pool.query(`select actor_profile_id, after from audit_log where action = 'kyc_document.mrz_type' and target_id = $1`, [id])).rows;
    expect(audit).toEqual([{ actor_profile_id: manager.id, after: expect.objectContaining({ status: 'typed', valid: true }) }]);
    expect(JSON.stringify(audit)).not.toContain('DUPONT');
  });

  it('keeps a zone typed while the photo was being read: the reading ending after it replaces nothing', async () => {
    const user = await marie();
    const id = await uploaded(user, { kind: 'passport' }, await documentPhoto(td3Lines(MARIE), 'PASSPORT'));
    // A reading under way (it has opened the document; OCR takes about a second), then the reviewer types.
    const reading = runMrzReadJob({ db: t.database.db, config: t.config }, { document_id: id });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const typed = td3Lines({ ...MARIE, number: '99ZZ11111' });
    const res = await t.request({ method: 'POST', url: `/api/kyc/documents/${id}/mrz`, token: manager.token, headers: { 'x-forwarded-for': uniqueAddress() }, payload: { lines: typed } });
    expect(res.statusCode, res.body).toBe(200);
    await reading;
    await t.jobsDone(60_000);
    expect(await mrzOf(id)).toMatchObject({ status: 'typed', document_number: '99ZZ11111', typed_by: manager.id });
  });

  it('refuses lines that are no zone (400), a sender (403) and a document or side that has no zone (404)', async () => {
    const user = await marie();
    const id = await uploaded(user, { kind: 'passport' }, await documentPhoto(td3Lines(MARIE), 'PASSPORT'));
    const selfie = await uploaded(user, { kind: 'selfie' }, await documentPhoto(td3Lines(MARIE), 'SELFIE'));
    const front = await uploaded(user, { kind: 'id_card', side: 'front' }, await documentPhoto(td1Lines(MARIE), 'CARTE NATIONALE D’IDENTITÉ'));
    const post = (who: TestUser, doc: string, lines: string[]) =>
      t.request({ method: 'POST', url: `/api/kyc/documents/${doc}/mrz`, token: who.token, headers: { 'x-forwarded-for': uniqueAddress() }, payload: { lines } });
    const bad = await post(manager, id, ['P<FRADUPONT', '12AB']);
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'validation_failed']);
    expect((await post(user, id, td3Lines(MARIE))).statusCode).toBe(403);
    expect((await post(manager, selfie, td3Lines(MARIE))).statusCode).toBe(404);
    expect((await post(manager, front, td1Lines(MARIE))).statusCode).toBe(404);
    expect(await mrzOf(front)).toBeNull();
    await t.jobsDone(60_000);
  });
});
