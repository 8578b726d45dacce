import { randomBytes } from 'node:crypto';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseExpiredAccounts } from '@server/modules/privacy/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { td1Lines } from '../support/mrz-images.js';
import { onePagePdf } from '../support/pdf-files.js';
import type { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// Staff reviews of a sender's identity documents (docs/rules/know-your-sender.md#reviews): what a
// level needs before it is submitted, one open review per sender, the staff queue oldest first,
// decisions that set the level, e-mailed to the sender in their language, audited.

let t: TestApp;
let smtp: SmtpListener;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  ({ t, smtp } = await createMailedTestApp());
  [manager, admin] = await Promise.all([createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
});
afterAll(async () => { await t?.close(); });

const photo = () => sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } } }).jpeg().toBuffer();
const PDF = onePagePdf();

async function upload(user: TestUser, fields: Record<string, string>, data?: Buffer) {
  const file = data ?? await photo();
  const boundary = `----doc${randomBytes(6).toString('hex')}`;
  const parts = [
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: application/octet-stream\r\n\r\n`), file, Buffer.from('\r\n'),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  const res = await t.request({
    method: 'POST', url: '/api/kyc/documents', token: user.token, payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string };
}

const submit = (user: TestUser, level: unknown) => t.request({ method: 'POST', url: '/api/kyc/reviews', token: user.token, payload: { level } });
const decide = (user: TestUser, id: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/kyc/reviews/${id}/decision`, token: user.token, payload });
/** The mail's text as written: the listener keeps quoted-printable's bytes one character each. */
const mailText = (raw: string) => Buffer.from(raw, 'latin1').toString('utf8');
const kyc = async (user: TestUser) => (await t.request({ method: 'GET', url: '/api/kyc', token: user.token })).json().data;
const queue = async (status = 'open') => {
  const res = await t.request({ method: 'GET', url: `/api/kyc/reviews?status=${status}`, token: manager.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; waiting_seconds: number; submitted_at: string; sender: { profile_id: string; kyc_level: number } }[];
};
/** A level-1 sender (complete profile, nothing approved) in `language`. */
const levelOne = (language: 'en' | 'fr' = 'en', full_name = 'Awa Ndong') => createUser(t, { kyc_level: 0, language, full_name });

async function identity(user: TestUser) {
  const front = await upload(user, { kind: 'id_card', side: 'front' });
  const back = await upload(user, { kind: 'id_card', side: 'back' });
  const selfie = await upload(user, { kind: 'selfie' });
  return { front: front.id, back: back.id, selfie: selfie.id };
}

describe('POST /api/kyc/reviews', () => {
  it('answers 422 naming each missing document, in the sender\'s words', async () => {
    const sender = await levelOne();
    let res = await submit(sender, 2);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'kyc_review_documents_missing', missing: ['identity_document', 'selfie'] });
    expect(res.json().error).toBe('To ask for level 2, first upload: an identity document (passport, both sides of an ID card, or a residence permit), a selfie.');
    await upload(sender, { kind: 'id_card', side: 'front' });
    res = await submit(sender, 2);
    expect(res.json().missing).toEqual(['id_card_back', 'selfie']);
    await upload(sender, { kind: 'id_card', side: 'back' });
    await upload(sender, { kind: 'selfie' });
    res = await submit(sender, 3);
    expect(res.statusCode).toBe(422);
    expect(res.json().missing).toEqual(['proof_of_address', 'source_of_funds']);
    const fr = await levelOne('fr');
    const frRes = await t.request({ method: 'POST', url: '/api/kyc/reviews', token: fr.token, payload: { level: 2 }, headers: { 'accept-language': 'fr' } });
    expect(frRes.json().error).toContain('envoyez d’abord\u00a0: une pièce d’identité');
  });

  it('takes a passport and a selfie for level 2, and a PDF proof of address and source of funds for level 3; one open review at a time (409)', async () => {
    const sender = await levelOne();
    await upload(sender, { kind: 'passport' });
    await upload(sender, { kind: 'selfie' });
    await upload(sender, { kind: 'proof_of_address' }, PDF);
    await upload(sender, { kind: 'source_of_funds' }, PDF);
    const res = await submit(sender, 3);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ level: 3, status: 'open', note: null });
    const again = await submit(sender, 2);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('kyc_review_open');
    // The sender sees it on GET /api/kyc, and keeps their current level meanwhile.
    const status = await kyc(sender);
    expect(status.open_review).toMatchObject({ id: res.json().data.id, level: 3, status: 'open', note: null });
    expect(status.level).toBe(1);
    expect(status.windows.find((w: { window: string }) => w.window === '30d').limit).toBe('1000.00');
  });

  it('refuses a level 1, 4 or text (400), and a level already held (422)', async () => {
    const sender = await createUser(t, { kyc_level: 2 });
    for (const level of [1, 4, 'two']) expect((await submit(sender, level)).statusCode).toBe(400);
    await identity(sender);
    const res = await submit(sender, 2);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('kyc_review_level_held');
  });
});

describe('the staff queue and a review', () => {
  it('lists open reviews oldest first with the time waiting; a review shows the profile, its documents with links, mrz null until read', async () => {
    const first = await levelOne('en', 'First Waiting');
    const second = await levelOne('en', 'Second Waiting');
    await identity(first);
    await identity(second);
    const a = (await submit(first, 2)).json().data.id as string;
    await t.database.pool.query(`update kyc_reviews set created_at = now() - interval '3 hours' where id = $1`, [a]);
    const b = (await submit(second, 2)).json().data.id as string;
    const open = await queue();
    const ids = open.map((r) => r.id);
    expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
    const ra = open.find((r) => r.id === a)!;
    expect(ra.waiting_seconds).toBeGreaterThanOrEqual(3 * 3600);
    expect(ra.waiting_seconds).toBeLessThan(3 * 3600 + 120);
    const detail = await t.request({ method: 'GET', url: `/api/kyc/reviews/${a}`, token: manager.token });
    expect(detail.statusCode).toBe(200);
    const d = detail.json().data;
    expect(d.profile).toMatchObject({ full_name: 'First Waiting', date_of_birth: '1990-04-12', city: 'Libreville', country: 'GA', language: 'en' });
    // The sender's level as it stands (complete and screened: 1), as GET /api/kyc gives it, though staff approved none (kyc_level 0 on the profile).
    expect((await t.database.pool.query('select kyc_level from profiles where id = $1', [first.id])).rows[0].kyc_level).toBe(0);
    expect(d.sender).toEqual({ profile_id: first.id, full_name: 'First Waiting', email: first.email, kyc_level: 1 });
    expect(ra.sender).toMatchObject({ profile_id: first.id, kyc_level: 1 });
    expect((await kyc(first)).level).toBe(1);
    expect(d.documents.map((x: { kind: string; side: string | null }) => `${x.kind}/${x.side}`)).toEqual(['id_card/front', 'id_card/back', 'selfie/null']);
    for (const doc of d.documents) {
      expect(doc.mrz).toBeNull();
      const bytes = await t.request({ method: 'GET', url: doc.href, token: manager.token });
      expect(bytes.statusCode).toBe(200);
      expect(bytes.headers['content-type']).toBe('image/jpeg');
    }
    expect((await t.request({ method: 'GET', url: '/api/kyc/reviews?status=pending', token: manager.token })).statusCode).toBe(400);
    // A card's front read before only backs were (an "unreadable" kept from then) shows no zone:
    // only the back carries one.
    const unreadable = { status: 'unreadable', lines: [], format: null, valid: false, checks: {}, document_code: null, issuing_state: null,
      document_number: null, surname: null, given_names: null, nationality: null, birth_date: null, expiry_date: null, expired: null,
      name_matches_profile: null, birth_date_matches_profile: null, read_at: new Date().toISOString() };
    await t.database.pool.query('update kyc_documents set mrz = $1 where id = any($2::uuid[])', [unreadable, d.documents.slice(0, 2).map((x: { id: string }) => x.id)]);
    const stale = (await t.request({ method: 'GET', url: `/api/kyc/reviews/${a}`, token: manager.token })).json().data;
    expect(stale.documents.map((x: { mrz: { status: string } | null }) => x.mrz?.status ?? null)).toEqual([null, 'unreadable', null]);
  });
});

describe('POST /api/kyc/reviews/{id}/decision', () => {
  it('approve sets the level (limits rise), accepts the documents, e-mails the sender in English, audited', async () => {
    const sender = await levelOne('en', 'Awa Approved');
    await identity(sender);
    const id = (await submit(sender, 2)).json().data.id as string;
    const res = await decide(manager, id, { decision: 'approve', note: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'approved', decided_by: manager.id, sender: { kyc_level: 2 } });
    expect(res.json().data.documents.every((d: { status: string }) => d.status === 'accepted')).toBe(true);
    const status = await kyc(sender);
    expect(status.level).toBe(2);
    expect(status.open_review).toBeNull();
    expect(status.windows.find((w: { window: string }) => w.window === '30d').limit).toBe('7000.00');
    await t.jobsDone(60_000); // the ID card photos queue MRZ reading (OCR) too
    const mail = await smtp.waitFor(sender.email, /level 2/);
    expect(mail.raw).toContain('Hello Awa Approved,');
    expect(mail.raw).toContain('We checked your documents: your account is now at level 2.');
    expect(mail.raw).toContain('http://localhost:3000/verify');
    const audit = await t.database.pool.query(`select actor_profile_id, action, target_type, before, after from audit_log where target_id = $1`, [id]);
    expect(audit.rows).toEqual([expect.objectContaining({
      actor_profile_id: manager.id, action: 'kyc_review.decide', target_type: 'kyc_review',
      before: expect.objectContaining({ status: 'open', kyc_level: 0 }), after: expect.objectContaining({ status: 'approved', decision: 'approve', level: 2, kyc_level: 2 }),
    })]);
    // Decided once: a second decision is refused.
    const twice = await decide(admin, id, { decision: 'reject', note: 'no' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('kyc_review_decided');
    expect((await queue('approved')).map((r) => r.id)).toContain(id);
  });

  it('reject needs a reason, which the sender reads on GET /api/kyc and in a French e-mail; the documents must be sent again', async () => {
    const sender = await levelOne('fr', 'Jean Refusé');
    await identity(sender);
    const id = (await submit(sender, 2)).json().data.id as string;
    const empty = await decide(manager, id, { decision: 'reject', note: '  ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().code).toBe('kyc_review_note_required');
    const res = await decide(admin, id, { decision: 'reject', note: 'La photo de la carte est floue.' });
    expect(res.statusCode, res.body).toBe(200);
    const status = await kyc(sender);
    expect(status.level).toBe(1);
    expect(status.open_review).toMatchObject({ id, status: 'rejected', note: 'La photo de la carte est floue.' });
    await t.jobsDone(60_000); // the ID card photos queue MRZ reading (OCR) too
    const mail = { raw: mailText((await smtp.waitFor(sender.email, /Motif/)).raw) };
    expect(mail.raw).toContain('Bonjour Jean Refusé,');
    expect(mail.raw).toContain('Nous n’avons pas pu accepter vos documents pour le niveau 2.');
    expect(mail.raw).toContain('Motif\u00a0: La photo de la carte est floue.');
    // The audit log, never erased, says a note was written, not its words (erased after retention).
    const audit = await t.database.pool.query(`select after from audit_log where action = 'kyc_review.decide' and target_id = $1`, [id]);
    expect(audit.rows).toEqual([{ after: expect.objectContaining({ decision: 'reject', note_written: true }) }]);
    expect(JSON.stringify(audit.rows)).not.toContain('floue');
    // Rejected documents no longer count: the identity must be sent again.
    const again = await submit(sender, 2);
    expect(again.statusCode).toBe(422);
    expect(again.json().missing).toEqual(['identity_document', 'selfie']);
  });

  it('request_more shows "action needed" with what is needed; the documents not asked again stay for the next submission', async () => {
    const sender = await levelOne('en', 'Awa More');
    const docs = await identity(sender);
    const id = (await submit(sender, 2)).json().data.id as string;
    const res = await decide(manager, id, { decision: 'request_more', note: 'Please send the back of the card without glare.', resend: [docs.back] });
    expect(res.statusCode).toBe(200);
    expect((await kyc(sender)).open_review).toMatchObject({ id, status: 'more_requested', note: 'Please send the back of the card without glare.', missing: ['id_card_back'] });
    await t.jobsDone(60_000); // the ID card photos queue MRZ reading (OCR) too
    const mail = await smtp.waitFor(sender.email, /Action needed/);
    expect(mail.raw).toContain('What we need: Please send the back of the card without glare.');
    await upload(sender, { kind: 'id_card', side: 'back' });
    const next = await submit(sender, 2);
    expect(next.statusCode, next.body).toBe(201);
    expect((await kyc(sender)).open_review).toMatchObject({ id: next.json().data.id, status: 'open', note: null });
  });

  it('approves at most the level asked for, and a lower one when given', async () => {
    const sender = await levelOne();
    await identity(sender);
    const id = (await submit(sender, 2)).json().data.id as string;
    expect((await decide(manager, id, { decision: 'approve', level: 3, note: '' })).json().code).toBe('kyc_review_level_over');
    expect((await decide(manager, id, { decision: 'maybe', note: '' })).statusCode).toBe(400);
    expect((await decide(manager, id, { decision: 'approve', level: 2, note: 'OK' })).statusCode).toBe(200);
    expect((await kyc(sender)).level).toBe(2);
  });
});

describe('who sees reviews', () => {
  it('a sender never reads the queue or a review, nor decides; staff without their second factor see none', async () => {
    const sender = await levelOne();
    const other = await levelOne();
    await identity(sender);
    const id = (await submit(sender, 2)).json().data.id as string;
    for (const user of [sender, other]) {
      expect((await t.request({ method: 'GET', url: '/api/kyc/reviews', token: user.token })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url: `/api/kyc/reviews/${id}`, token: user.token })).statusCode).toBe(403);
      expect((await decide(user, id, { decision: 'approve', note: '' })).statusCode).toBe(403);
    }
    expect((await kyc(other)).open_review).toBeNull();
    const noFactor = await createUser(t, { role: 'manager', mfa: false });
    for (const res of [
      await t.request({ method: 'GET', url: '/api/kyc/reviews', token: noFactor.token }),
      await t.request({ method: 'GET', url: `/api/kyc/reviews/${id}`, token: noFactor.token }),
      await decide(noFactor, id, { decision: 'approve', note: '' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toMatch(/^mfa_(required|enrollment_required)$/);
    }
    expect((await t.request({ method: 'GET', url: '/api/kyc/reviews' })).statusCode).toBe(401);
  });
});

describe('the sender\'s data export', () => {
  it('holds their reviews (level asked, status, decision, the note they were sent, dates) and their documents\' metadata with the zone read, never bytes', async () => {
    const sender = await levelOne('en', 'Marie Dupont');
    const front = await upload(sender, { kind: 'id_card', side: 'front' });
    const back = await upload(sender, { kind: 'id_card', side: 'back' });
    const selfie = await upload(sender, { kind: 'selfie' });
    const zone = td1Lines({ surname: 'DUPONT', given: 'MARIE', number: '12AB34567', nationality: 'FRA', birth: '900412', expiry: '320101', sex: 'F' });
    const typed = await t.request({ method: 'POST', url: `/api/kyc/documents/${back.id}/mrz`, token: manager.token, payload: { lines: zone } });
    expect(typed.statusCode, typed.body).toBe(200);
    const first = (await submit(sender, 2)).json().data.id as string;
    expect((await decide(manager, first, { decision: 'request_more', note: 'A sharper photo of the front, please.', resend: [front.id] })).statusCode).toBe(200);
    const front2 = await upload(sender, { kind: 'id_card', side: 'front' });
    const second = (await submit(sender, 2)).json().data.id as string;

    const res = await t.request({ method: 'GET', url: '/api/profiles/me/export', token: sender.token });
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data.identity_reviews).toEqual([
      { id: first, level: 2, status: 'more_requested', decision: 'request_more', note: 'A sharper photo of the front, please.',
        documents: [front.id, back.id, selfie.id], submitted_at: expect.any(String), decided_at: expect.any(String) },
      { id: second, level: 2, status: 'open', decision: null, note: null, documents: [back.id, selfie.id, front2.id], submitted_at: expect.any(String), decided_at: null },
    ]);
    expect(data.identity_documents.map((d: { id: string; kind: string; side: string | null; content_type: string }) => [d.id, d.kind, d.side, d.content_type])).toEqual([
      [front.id, 'id_card', 'front', 'image/jpeg'], [back.id, 'id_card', 'back', 'image/jpeg'], [selfie.id, 'selfie', null, 'image/jpeg'], [front2.id, 'id_card', 'front', 'image/jpeg'],
    ]);
    const backRow = data.identity_documents[1];
    expect(backRow).toMatchObject({ status: 'accepted', size: expect.any(Number), uploaded_at: expect.any(String), erased_at: null });
    expect(backRow.mrz).toMatchObject({
      status: 'typed', format: 'TD1', valid: true, surname: 'DUPONT', given_names: 'MARIE', document_number: '12AB34567',
      birth_date: '1990-04-12', expiry_date: '2032-01-01', expired: false, name_matches_profile: true, birth_date_matches_profile: true,
    });
    // The zone's raw lines repeat what is listed; which staff member typed it or decided is not said.
    expect(backRow.mrz).not.toHaveProperty('lines');
    expect(backRow.mrz).not.toHaveProperty('typed_by');
    expect(data.identity_documents[0].mrz).toBeNull();
    expect(res.body).not.toContain(manager.id);
    expect(res.body).not.toMatch(/sealed|decided_by/);
    // The decision's audit entry is listed (its action and when).
    expect(data.audit).toContainEqual(expect.objectContaining({ action: 'kyc_review.decide', target_type: 'kyc_review', target_id: first }));
  });
});

describe('retention of a closed account\'s identity reviews and documents', () => {
  it('keeps them 5 years after closure, then the job erases the documents\' bytes, the zone read from them and the notes to the sender', async () => {
    const sender = await levelOne('en', 'Marie Dupont');
    const front = await upload(sender, { kind: 'id_card', side: 'front' });
    const back = await upload(sender, { kind: 'id_card', side: 'back' });
    await upload(sender, { kind: 'selfie' });
    const zone = td1Lines({ surname: 'DUPONT', given: 'MARIE', number: '12AB34567', nationality: 'FRA', birth: '900412', expiry: '320101', sex: 'F' });
    expect((await t.request({ method: 'POST', url: `/api/kyc/documents/${back.id}/mrz`, token: manager.token, payload: { lines: zone } })).statusCode).toBe(200);
    const review = (await submit(sender, 2)).json().data.id as string;
    expect((await decide(manager, review, { decision: 'reject', note: 'The name on the card is not Marie Dupont’s.' })).statusCode).toBe(200);
    const closed = await t.request({ method: 'POST', url: '/api/profiles/me/close', token: sender.token, payload: { current_password: sender.password }, headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(closed.statusCode, closed.body).toBe(200);
    const closedAt = new Date(closed.json().closed_at as string);

    const documents = async () => (await t.database.pool.query(
      'select id, kind, side, size, sealed is not null as sealed, mrz is not null as mrz, erased_at is not null as erased from kyc_documents where profile_id = $1 order by created_at', [sender.id])).rows;
    const reviewRow = async () => (await t.database.pool.query('select level, status, note, decided_at from kyc_reviews where id = $1', [review])).rows[0];
    // The job's clock moved to a day before the 5 years are over: everything is kept.
    const job = { db: t.database.db, log: pino({ level: 'silent' }) };
    const yearsAfter = (years: number, days: number) => new Date(Date.UTC(closedAt.getUTCFullYear() + years, closedAt.getUTCMonth(), closedAt.getUTCDate() + days, closedAt.getUTCHours(), closedAt.getUTCMinutes()));
    expect(await eraseExpiredAccounts(job, yearsAfter(5, -1))).toBe(0);
    expect((await documents()).map((d) => [d.sealed, d.mrz, d.erased])).toEqual([[true, false, false], [true, true, false], [true, false, false]]);
    expect((await reviewRow()).note).toBe('The name on the card is not Marie Dupont’s.');

    // A day after: erased, their metadata kept.
    expect(await eraseExpiredAccounts(job, yearsAfter(5, 1))).toBe(1);
    const erased = await documents();
    expect(erased.map((d) => [d.kind, d.side, d.sealed, d.mrz, d.erased])).toEqual([
      ['id_card', 'front', false, false, true], ['id_card', 'back', false, false, true], ['selfie', null, false, false, true],
    ]);
    expect(erased.every((d) => d.size > 0)).toBe(true);
    expect(erased.map((d) => d.id).slice(0, 2)).toEqual([front.id, back.id]);
    expect(await reviewRow()).toMatchObject({ level: 2, status: 'rejected', note: null, decided_at: expect.any(Date) });
    // Nothing of the zone or the note is left anywhere the account's rows reach, the audit log included.
    const left = JSON.stringify((await t.database.pool.query(`select (select jsonb_agg(d) from kyc_documents d where d.profile_id = $1) as docs,
        (select jsonb_agg(r) from kyc_reviews r where r.profile_id = $1) as reviews,
        (select jsonb_agg(a) from audit_log a where a.target_id = any($2::text[])) as audit`, [sender.id, [review, front.id, back.id, sender.id]])).rows);
    for (const word of ['DUPONT', '12AB34567', 'Marie Dupont']) expect(left).not.toContain(word);
  });
});
