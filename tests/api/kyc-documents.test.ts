import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import sharp from 'sharp';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycDocuments } from '@server/db/schema.js';
import { createLogger } from '@server/logger.js';
import { DocumentBox } from '@server/lib/document-box.js';
import { eraseExpiredAccounts } from '@server/modules/privacy/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { onePagePdf } from '../support/pdf-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// Identity documents (docs/rules/know-your-sender.md#documents): accepted by what their bytes are,
// photos shrunk and stripped of their metadata, sealed under DOCUMENT_KEY in the database, shown
// to their sender and to staff with their second factor (each view audited), kept at closure and
// erased when the retention ends. Nothing about them is logged.

const KEY = randomBytes(32);
const lines: string[] = [];
const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done(); } });

let t: TestApp;
let sender: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp({ env: { DOCUMENT_KEY: KEY.toString('base64') }, logger: createLogger({ LOG_LEVEL: 'info' }, sink) });
  [sender, manager] = await Promise.all([createUser(t), createUser(t, { role: 'manager' })]);
});
afterAll(async () => { await t?.close(); });

const photo = (format: 'jpeg' | 'png' | 'webp', width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .composite([{ input: { create: { width: Math.floor(width / 3), height: Math.floor(height / 3), channels: 3, background: { r: 230, g: 30, b: 60 } } }, left: 10, top: 10 }])
    .withExif({ IFD0: { Make: 'SecretPhoneMaker', Copyright: 'Jean Ndong' } })[format]().toBuffer();

/** A minimal real PDF: one page, with its cross-reference table. */
const PDF = onePagePdf();
/** The start of an HEIC still: an ISO-BMFF `ftyp` box with the `heic` brand. */
const HEIC = Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypheic'), Buffer.alloc(4), Buffer.from('mif1heic'), randomBytes(200)]);

function form(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = `----doc${randomBytes(6).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() }, payload: Buffer.concat(parts) };
}

const upload = (user: TestUser, fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) =>
  t.request({ method: 'POST', url: '/api/kyc/documents', token: user.token, ...form(fields, file) });
const view = (user: TestUser, id: string) => t.request({ method: 'GET', url: `/api/kyc/documents/${id}`, token: user.token });
const stored = async (id: string) =>
  (await t.database.pool.query('select sealed, content_type, size from kyc_documents where id = $1', [id])).rows[0] as { sealed: Buffer | null; content_type: string; size: number };
const countOf = async (profileId: string) =>
  (await t.database.pool.query('select count(*)::int as n from kyc_documents where profile_id = $1', [profileId])).rows[0].n as number;

describe('POST /api/kyc/documents', () => {
  it('takes a JPEG, PNG and WebP photo and a PDF, each by its bytes, and refuses HEIC; answers the metadata', async () => {
    const user = await createUser(t);
    const cases: { fields: Record<string, string>; file: { name: string; type: string; data: Buffer }; type: string }[] = [
      { fields: { kind: 'passport' }, file: { name: 'p.jpg', type: 'image/jpeg', data: await photo('jpeg') }, type: 'image/jpeg' },
      { fields: { kind: 'id_card', side: 'front' }, file: { name: 'c.png', type: 'image/png', data: await photo('png') }, type: 'image/png' },
      { fields: { kind: 'id_card', side: 'back' }, file: { name: 'c.webp', type: 'image/webp', data: await photo('webp') }, type: 'image/webp' },
      { fields: { kind: 'proof_of_address' }, file: { name: 'bill.pdf', type: 'application/pdf', data: PDF }, type: 'application/pdf' },
    ];
    const ids: string[] = [];
    for (const c of cases) {
      const res = await upload(user, c.fields, c.file);
      expect(res.statusCode, res.body).toBe(201);
      const doc = res.json().data;
      expect(doc).toMatchObject({ kind: c.fields.kind, side: c.fields.side ?? null, content_type: c.type, status: 'pending' });
      expect(doc.size).toBeGreaterThan(0);
      expect(Date.parse(doc.uploaded_at)).toBeGreaterThan(Date.now() - 60_000);
      ids.push(doc.id);
    }
    // A PDF is kept as uploaded; HEIC is refused: sharp's prebuilt binaries do not decode it.
    expect((await view(user, ids[3]!)).rawPayload.equals(PDF)).toBe(true);
    const heic = await upload(user, { kind: 'selfie' }, { name: 'me.heic', type: 'image/heic', data: HEIC });
    expect([heic.statusCode, heic.json().code]).toEqual([400, 'document_heic']);

    const list = await t.request({ method: 'GET', url: '/api/kyc/documents', token: user.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    expect(JSON.stringify(list.json())).not.toContain('sealed');
  });

  it('stores a PDF named .jpg as the PDF it is, and refuses it as a selfie', async () => {
    const user = await createUser(t);
    const res = await upload(user, { kind: 'passport' }, { name: 'passport.jpg', type: 'image/jpeg', data: PDF });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.content_type).toBe('application/pdf');
    const served = await view(user, res.json().data.id);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe('inline; filename="passport.pdf"');

    const selfie = await upload(user, { kind: 'selfie' }, { name: 'me.jpg', type: 'image/jpeg', data: PDF });
    expect(selfie.statusCode).toBe(400);
    expect(selfie.json().code).toBe('document_needs_image');
    expect(selfie.json().error).toBe('A selfie must be a photo (JPEG, PNG or WebP), not a PDF.');
    expect(await countOf(user.id)).toBe(1);
  });

  it('refuses an executable (ELF, Windows MZ) and text, whatever their name, storing nothing', async () => {
    const user = await createUser(t);
    const elf = Buffer.concat([Buffer.from('7f454c46020101000000000000000000', 'hex'), Buffer.alloc(200)]);
    const mz = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from('80000000', 'hex'), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(200)]);
    for (const data of [elf, mz, Buffer.from('just some text, not a document')]) {
      const res = await upload(user, { kind: 'passport' }, { name: 'passport.jpg', type: 'image/jpeg', data });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'document_type', error: 'This file is not a photo (JPEG, PNG, WebP) or a PDF.' });
    }
    expect(await countOf(user.id)).toBe(0);
  });

  it('refuses a file that only starts like a photo: 400 document_unreadable', async () => {
    const user = await createUser(t);
    const fake = Buffer.concat([Buffer.from('ffd8ffe000104a464946000101', 'hex'), randomBytes(2000)]);
    const res = await upload(user, { kind: 'selfie' }, { name: 'me.jpg', type: 'image/jpeg', data: fake });
    expect([res.statusCode, res.json().code]).toEqual([400, 'document_unreadable']);
    expect(await countOf(user.id)).toBe(0);
  });

  it('takes a file of 10 MB exactly (twice what a proof of payment may be)', async () => {
    const user = await createUser(t);
    const pdf = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 - PDF.length, 0x20)]);
    const res = await upload(user, { kind: 'source_of_funds' }, { name: 'statement.pdf', type: 'application/pdf', data: pdf });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ content_type: 'application/pdf', size: 10 * 1024 * 1024 });
  });

  it('refuses a file over 10 MB with 413, storing nothing', async () => {
    const user = await createUser(t);
    const big = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), randomBytes(10 * 1024 * 1024 - 3)]);
    const res = await upload(user, { kind: 'passport' }, { name: 'big.jpg', type: 'image/jpeg', data: big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'document_too_large', error: 'The file is too large: at most 10 MB.' });
    expect(await countOf(user.id)).toBe(0);
  });

  it('shrinks a large photo to 2,000 px on its longest side and drops its EXIF', async () => {
    const user = await createUser(t);
    const original = await photo('jpeg', 4000, 3000);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload(user, { kind: 'residence_permit', side: 'front' }, { name: 'big.jpg', type: 'image/jpeg', data: original });
    expect(res.statusCode).toBe(201);
    const served = (await view(user, res.json().data.id)).rawPayload;
    const meta = await sharp(served).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 2000, 1500]);
    expect(meta.exif).toBeUndefined();
    expect(served.includes('SecretPhoneMaker')).toBe(false);
    expect(res.json().data.size).toBe(served.length);
  });

  it('names what is wrong with kind, side and file', async () => {
    const user = await createUser(t);
    const jpeg = { name: 'x.jpg', type: 'image/jpeg', data: await photo('jpeg') };
    const refusals: [Record<string, string>, typeof jpeg | undefined, string][] = [
      [{}, jpeg, 'document_kind'],
      [{ kind: 'driving_licence' }, jpeg, 'document_kind'],
      [{ kind: 'id_card' }, jpeg, 'document_side_required'],
      [{ kind: 'residence_permit', side: 'middle' }, jpeg, 'document_side_required'],
      [{ kind: 'passport', side: 'front' }, jpeg, 'document_side_not_applicable'],
      [{ kind: 'selfie' }, undefined, 'document_missing'],
    ];
    for (const [fields, file, code] of refusals) {
      const res = await upload(user, fields, file);
      expect([res.statusCode, res.json().code]).toEqual([400, code]);
    }
    expect(await countOf(user.id)).toBe(0);
  });

  it('takes 20 documents in 24 hours, then answers 429', async () => {
    const user = await createUser(t);
    await t.database.db.insert(kycDocuments).values(Array.from({ length: 20 }, () => ({
      id: crypto.randomUUID(), profile_id: user.id, kind: 'selfie' as const, content_type: 'image/jpeg' as const, size: 1, sealed: Buffer.from('x'),
    })));
    const res = await upload(user, { kind: 'selfie' }, { name: 'me.jpg', type: 'image/jpeg', data: await photo('jpeg') });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'document_limit_daily', error: 'You have sent 20 documents in the last 24 hours. Please try again tomorrow.' });
    expect(await countOf(user.id)).toBe(20);
  });

  it('logs nothing about a document: not its name, kind or bytes', async () => {
    const before = lines.length;
    const res = await upload(sender, { kind: 'passport' }, { name: 'jean-ndong-passport-scan.jpg', type: 'image/jpeg', data: PDF });
    expect(res.statusCode).toBe(201);
    const logged = lines.slice(before).join('');
    expect(logged).toContain('/api/kyc/documents');
    expect(logged).not.toContain('jean-ndong');
    expect(logged).not.toContain('passport');
    expect(logged).not.toContain('%PDF');
  });
});

describe('a document at rest', () => {
  it('is unreadable in the database without DOCUMENT_KEY, and opens with it only for its own row', async () => {
    const original = await photo('png');
    const res = await upload(sender, { kind: 'selfie' }, { name: 'me.png', type: 'image/png', data: original });
    const id = res.json().data.id as string;
    const served = (await view(sender, id)).rawPayload;
    const row = await stored(id);
    expect(row.sealed).toBeInstanceOf(Buffer);
    for (const plain of [original, served]) {
      expect(row.sealed!.includes(plain.subarray(0, 8))).toBe(false); // the PNG signature
      expect(row.sealed!.includes(plain.subarray(plain.length - 64))).toBe(false);
    }
    expect(row.sealed!.includes(Buffer.from('IHDR'))).toBe(false);
    expect(new DocumentBox(randomBytes(32)).open(row.sealed!, id)).toBeNull();
    expect(new DocumentBox(KEY).open(row.sealed!, crypto.randomUUID())).toBeNull();
    expect(new DocumentBox(KEY).open(row.sealed!, id)!.equals(served)).toBe(true);
  });
});

describe('GET /api/kyc/documents/{id}', () => {
  let id: string;
  let served: Buffer;
  beforeAll(async () => {
    const res = await upload(sender, { kind: 'id_card', side: 'front' }, { name: 'card.webp', type: 'image/webp', data: await photo('webp') });
    id = res.json().data.id;
    served = (await view(sender, id)).rawPayload;
  });
  const viewAudits = async () => (await t.database.pool.query(
    `select actor_profile_id, after from audit_log where action = 'kyc_document.view' and target_id = $1`, [id])).rows;

  it('gives the sender the same image back, not cached, not sniffed, inline under a safe name; not audited', async () => {
    const res = await view(sender, id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe('inline; filename="id_card-front.webp"');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 640, 480]);
    expect(await viewAudits()).toEqual([]);
  });

  it('is 404 to another sender and for an unknown id', async () => {
    const other = await createUser(t);
    expect((await view(other, id)).statusCode).toBe(404);
    expect((await view(sender, crypto.randomUUID())).statusCode).toBe(404);
  });

  it('shows it to a manager with the second factor, audited; refuses one without', async () => {
    const res = await view(manager, id);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(served)).toBe(true);
    expect(await viewAudits()).toEqual([{ actor_profile_id: manager.id, after: { profile_id: sender.id, kind: 'id_card', side: 'front' } }]);

    const withoutFactor = await createUser(t, { role: 'manager', mfa: false });
    const refused = await view(withoutFactor, id);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'mfa_enrollment_required']);
    expect(await viewAudits()).toHaveLength(1);
  });
});

describe('a sender\'s documents and their own data', () => {
  it('lists the documents\' metadata in the export, keeps them at closure and erases their bytes after 5 years', async () => {
    const user = await createUser(t);
    const doc = (await upload(user, { kind: 'passport' }, { name: 'p.pdf', type: 'application/pdf', data: PDF })).json().data;
    const exported = (await t.request({ method: 'GET', url: '/api/profiles/me/export', token: user.token })).json();
    expect(exported.identity_documents).toEqual([{ ...doc, erased_at: null, mrz: null, uploaded_at: expect.any(String) }]);
    expect(Date.parse(exported.identity_documents[0].uploaded_at)).toBe(Date.parse(doc.uploaded_at));

    const closed = await t.request({ method: 'POST', url: '/api/profiles/me/close', token: user.token, payload: { current_password: user.password }, headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(closed.statusCode).toBe(200);
    expect((await stored(doc.id)).sealed).toBeInstanceOf(Buffer);

    const job = { db: t.database.db, log: pino({ level: 'silent' }) };
    await t.database.pool.query(`update profiles set closed_at = now() - interval '5 years' + interval '1 day' where id = $1`, [user.id]);
    await eraseExpiredAccounts(job);
    expect((await stored(doc.id)).sealed).toBeInstanceOf(Buffer);

    await t.database.pool.query(`update profiles set closed_at = now() - interval '5 years' - interval '1 day' where id = $1`, [user.id]);
    await eraseExpiredAccounts(job);
    const erased = (await t.database.pool.query('select sealed, erased_at, kind from kyc_documents where id = $1', [doc.id])).rows[0];
    expect(erased).toMatchObject({ sealed: null, kind: 'passport' });
    expect(erased.erased_at).toBeInstanceOf(Date);
    expect((await view(manager, doc.id)).statusCode).toBe(404);
  });
});
