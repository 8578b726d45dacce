import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '@core/errors.js';
import { ECB_THREE_DAYS } from '../support/ecb-rates-file.js';
import { createUser, type TestUser } from '../support/factories.js';
import { onePageObjects, onePagePdf, pdfOf } from '../support/pdf-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';
import { uniqueAddress } from './auth-fixtures.js';

// The upload routes hardened (docs/rules/know-your-sender.md#documents, docs/rules/money-states.md,
// docs/rules/screening.md, docs/rules/fees-and-rates.md): a file over its limit is refused
// whatever the timing of its chunks, a multipart body without a usable boundary is a listed 4xx,
// and a file is judged by its structure (an image decodes, a PDF is one and runs nothing), with
// nothing kept of what is refused.

let t: TestApp;
let sender: TestUser;
let admin: TestUser;
let transferId: string;
/** The server's temporary directory for this file's app: list uploads land there, and must not stay. */
let scratch: string;
const formerTmp = process.env.TMPDIR;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'upload-hardening-'));
  process.env.TMPDIR = scratch;
  t = await createTestApp({ env: { DOCUMENT_KEY: Buffer.alloc(32, 7).toString('base64') } });
  [sender, admin] = await Promise.all([createUser(t), createUser(t, { role: 'admin' })]);
  transferId = (await createTransfer(t, sender.id)).id;
});
afterAll(async () => {
  await t?.close();
  if (formerTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = formerTmp;
  rmSync(scratch, { recursive: true, force: true });
});

const count = async (sql: string, params: unknown[] = []) => (await t.database.pool.query(sql, params)).rows[0].n as number;

interface Route {
  name: string;
  url: () => string;
  token: () => string;
  /** Form fields sent before the file. */
  fields: Record<string, string>;
  fieldname: string;
  filename: string;
  /** The start of a file of the route's kind, padded out to the size asked. */
  head: Buffer;
  limit: number;
  tooLarge: { status: number; code: ErrorCode; error: string };
  /** What the route keeps: rows (and, for lists, temporary files). */
  kept: () => Promise<number>;
}

const ROUTES: Route[] = [
  {
    name: 'proof of payment', url: () => `/api/transfer-requests/${transferId}/proof`, token: () => sender.token,
    fields: {}, fieldname: 'file', filename: 'receipt.pdf', head: Buffer.from('%PDF-1.4\n'),
    // 5 MB (docs/rules/money-states.md), in MiB as MAX_PROOF_BYTES in core/proof.ts.
    limit: 5 * 1024 * 1024,
    tooLarge: { status: 413, code: 'file_too_large', error: 'The file is too large: at most 5 MB.' },
    kept: () => count('select count(*)::int as n from payment_proofs where transfer_request_id = $1', [transferId]),
  },
  {
    name: 'identity document', url: () => '/api/kyc/documents', token: () => sender.token,
    fields: { kind: 'source_of_funds' }, fieldname: 'file', filename: 'payslip.pdf', head: Buffer.from('%PDF-1.4\n'),
    // 10 MB (docs/rules/know-your-sender.md), in MiB as MAX_DOCUMENT_BYTES in core/kyc-documents.ts.
    limit: 10 * 1024 * 1024,
    tooLarge: { status: 413, code: 'document_too_large', error: 'The file is too large: at most 10 MB.' },
    kept: () => count('select count(*)::int as n from kyc_documents where profile_id = $1', [sender.id]),
  },
  {
    name: 'reconciliation statement', url: () => '/api/reconciliation/airtel_gabon/imports', token: () => admin.token,
    fields: {}, fieldname: 'file', filename: 'may.csv', head: Buffer.from('date,reference,description,amount\n2026-05-05,MISC,'),
    // MAX_STATEMENT_BYTES in reconciliation/routes.ts.
    limit: 2_000_000,
    tooLarge: { status: 413, code: 'upload_too_large', error: 'The file is too large: at most 2 MB.' },
    kept: () => count('select (select count(*) from statement_lines) + (select count(*) from reconciliation_statements) as n').then(Number),
  },
  {
    name: 'ECB rate file', url: () => '/api/rates/ecb', token: () => admin.token,
    fields: {}, fieldname: 'file', filename: 'eurofxref-hist-90d.xml', head: Buffer.from(ECB_THREE_DAYS.replace(/<\/gesmes:Envelope>\s*$/, '')),
    // MAX_ECB_FILE_BYTES in rates/ecb.ts; over it, the file is documented as not the ECB's (docs/rules/fees-and-rates.md).
    limit: 2 * 1024 * 1024,
    tooLarge: { status: 400, code: 'ecb_file_invalid', error: 'This is not an ECB reference-rate file (eurofxref-daily.xml or eurofxref-hist-90d.xml) with a USD rate.' },
    kept: () => count('select count(*)::int as n from audit_log where action = \'rate.update\''),
  },
  {
    name: 'sanctions list file', url: () => '/api/screening/lists', token: () => admin.token,
    fields: { source: 'eu' }, fieldname: 'files', filename: 'eu.csv', head: Buffer.from('Entity_LogicalId;NameAlias_WholeName\n'),
    // 200 MB a file (docs/rules/screening.md), MAX_LIST_FILE_MB in screening/upload.ts.
    limit: 200 * 1_000_000,
    tooLarge: { status: 413, code: 'list_file_too_large', error: 'A list file is too large: at most 200 MB each.' },
    kept: async () => await count('select (select count(*) from screening_list_versions) + (select count(*) from screening_list_imports) as n').then(Number)
      + readdirSync(scratch).length,
  },
];

const MiB = 1024 * 1024;

/**
 * A multipart body streamed as it is generated (never whole in memory): the fields, then a file of
 * `size` bytes (`head`, then "a"s), in chunks of at most 1 MiB, one of them ending exactly `cutAt`
 * bytes into the file: where the parser's size limit falls, the case in which a file cut at its
 * limit looked whole to a reader that checked the cut only as chunks arrived.
 */
function streamedUpload(route: Route, size: number, cutAt: number): { headers: Record<string, string>; payload: Readable } {
  const boundary = `----hardening${Math.random().toString(16).slice(2)}`;
  const head = Buffer.concat([
    ...Object.entries(route.fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${route.fieldname}"; filename="${route.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  ]);
  const filler = Buffer.alloc(MiB, 0x61);
  const bytes = (from: number, to: number): Buffer => {
    const start = from < route.head.length ? route.head.subarray(from, Math.min(to, route.head.length)) : Buffer.alloc(0);
    const rest = Math.max(0, to - Math.max(from, route.head.length));
    return rest === 0 ? start : Buffer.concat([start, filler.subarray(0, rest)]);
  };
  function* chunks(): Generator<Buffer> {
    yield head;
    for (const [from, to] of [[0, cutAt], [cutAt, size]] as const) {
      for (let at = from; at < to; at += MiB) yield bytes(at, Math.min(to, at + MiB));
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() }, payload: Readable.from(chunks()) };
}

/** A multipart body of fields and one file, whole. */
function form(fields: Record<string, string>, file: { fieldname?: string; name: string; type: string; data: Buffer }, boundary = `----form${Math.random().toString(16).slice(2)}`) {
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.fieldname ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.data, Buffer.from('\r\n'));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { boundary, payload: Buffer.concat(parts) };
}

describe('a file over its route\'s limit is refused, whatever its chunks, and nothing is kept', () => {
  for (const route of ROUTES) {
    const isList = route.name === 'sanctions list file';
    it(`${route.name}: ${route.tooLarge.status} ${route.tooLarge.code}`, { timeout: isList ? 180_000 : 60_000 }, async () => {
      const before = await route.kept();
      // A chunk ending exactly at the limit, then the byte past it; and (not for the 200 MB list)
      // the whole file over the limit in chunks that straddle it.
      const cases = isList ? [{ size: route.limit + 1, cutAt: route.limit }]
        : [{ size: route.limit + 1, cutAt: route.limit }, { size: route.limit + 100_000, cutAt: route.limit - 10 }];
      for (const { size, cutAt } of cases) {
        const res = await t.request({ method: 'POST', url: route.url(), token: route.token(), ...streamedUpload(route, size, cutAt) });
        expect([res.statusCode, res.json().code], `${size} bytes cut at ${cutAt}: ${res.body}`).toEqual([route.tooLarge.status, route.tooLarge.code]);
        expect(res.json().error).toBe(route.tooLarge.error);
      }
      expect(await route.kept()).toBe(before);
    });
  }
});

describe('a multipart body without a usable boundary is a listed 4xx, never a 500', () => {
  const sample: Record<string, Buffer> = {
    'proof of payment': onePagePdf(), 'identity document': onePagePdf(),
    'reconciliation statement': Buffer.from('date,reference,description,amount\n2026-05-05,MISC,Interest,25\n'),
    'ECB rate file': Buffer.from(ECB_THREE_DAYS), 'sanctions list file': Buffer.from('Entity_LogicalId;NameAlias_WholeName\n1;Someone\n'),
  };
  for (const route of ROUTES) {
    it(route.name, async () => {
      const before = await route.kept();
      const { boundary, payload } = form(route.fields, { fieldname: route.fieldname, name: route.filename, type: 'application/octet-stream', data: sample[route.name]! });
      const cases: Record<string, string> = {
        'no boundary': 'multipart/form-data',
        'an empty boundary': 'multipart/form-data; boundary=',
        'an empty quoted boundary': 'multipart/form-data; boundary=""',
        'a boundary over 70 characters': `multipart/form-data; boundary=${'b'.repeat(300)}`,
        'a boundary the body does not use': `multipart/form-data; boundary=${boundary}-other`,
      };
      for (const [name, contentType] of Object.entries(cases)) {
        const res = await t.request({ method: 'POST', url: route.url(), token: route.token(), payload, headers: { 'content-type': contentType, 'x-forwarded-for': uniqueAddress() } });
        const { code } = res.json() as { code: ErrorCode };
        expect(res.statusCode, `${name}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(500);
        expect(Object.keys(ERRORS), name).toContain(code);
        expect(res.statusCode, name).toBe(ERRORS[code].status);
      }
      // Without a boundary (or with one the RFC does not allow): bad_request by name.
      const none = await t.request({ method: 'POST', url: route.url(), token: route.token(), payload, headers: { 'content-type': 'multipart/form-data', 'x-forwarded-for': uniqueAddress() } });
      expect([none.statusCode, none.json().code]).toEqual([400, 'bad_request']);
      // A body cut before its closing boundary: upload_incomplete.
      const cut = await t.request({ method: 'POST', url: route.url(), token: route.token(), payload: payload.subarray(0, payload.length - boundary.length - 20), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() } });
      expect([cut.statusCode, cut.json().code], cut.body).toEqual([400, 'upload_incomplete']);
      expect(await route.kept()).toBe(before);
    });
  }
});

describe('a file is judged by its structure, not its first bytes', () => {
  const documentUpload = (fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) => {
    const { boundary, payload } = form(fields, file);
    return t.request({ method: 'POST', url: '/api/kyc/documents', token: sender.token, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() } });
  };
  const proofUpload = async (file: { name: string; type: string; data: Buffer }, id?: string) => {
    const target = id ?? (await createTransfer(t, sender.id)).id;
    const { boundary, payload } = form({}, file);
    return t.request({ method: 'POST', url: `/api/transfer-requests/${target}/proof`, token: sender.token, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': uniqueAddress() } });
  };
  const documents = () => count('select count(*)::int as n from kyc_documents where profile_id = $1', [sender.id]);
  const proofs = () => count('select count(*)::int as n from payment_proofs where profile_id = $1', [sender.id]);

  const HTML = Buffer.from('<!doctype html><html><body><script>fetch("/api/profiles/me").then(r => r.text()).then(alert)</script></body></html>');
  /** A Windows program's first bytes: the MZ header, the PE offset, the PE signature. */
  const PROGRAM = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from('80000000', 'hex'), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(400, 0x90)]);
  /** An ISO-BMFF `ftyp` box of the `heic` brand: what an iPhone's photo starts with. */
  const HEIC_HEADER = Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypheic'), Buffer.alloc(4), Buffer.from('mif1heic')]);
  /** A RIFF container of a lossy WebP: `RIFF`, its size, `WEBPVP8 `. */
  const WEBP_HEADER = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x00, 0x10, 0x00, 0x00]), Buffer.from('WEBPVP8 '), Buffer.from([0xf4, 0x0f, 0x00, 0x00])]);
  const photo = (format: 'png' | 'jpeg' | 'webp') =>
    sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 200, g: 220, b: 240 } } })
      .composite([{ input: { create: { width: 100, height: 50, channels: 3, background: { r: 20, g: 90, b: 30 } } }, left: 20, top: 20 }])[format]().toBuffer();

  it('refuses "%PDF-" followed by a Windows program as a passport (and as a proof), keeping nothing', async () => {
    const [docs, kept] = [await documents(), await proofs()];
    const fake = Buffer.concat([Buffer.from('%PDF-1.7\n'), PROGRAM]);
    const res = await documentUpload({ kind: 'passport' }, { name: 'passport.pdf', type: 'application/pdf', data: fake });
    expect([res.statusCode, res.json().code]).toEqual([400, 'document_type']);
    expect(res.json().error).toBe('This file is not a photo (JPEG, PNG, WebP) or a PDF.');
    const proof = await proofUpload({ name: 'receipt.pdf', type: 'application/pdf', data: fake });
    expect([proof.statusCode, proof.json().code]).toEqual([400, 'proof_type']);
    expect([await documents(), await proofs()]).toEqual([docs, kept]);
  });

  it('refuses HEIC (an ftyp box followed by HTML, and any HEIC: sharp here cannot decode it), keeping nothing', async () => {
    const before = await documents();
    for (const kind of ['selfie', 'passport']) {
      const res = await documentUpload({ kind }, { name: 'IMG_0001.HEIC', type: 'image/heic', data: Buffer.concat([HEIC_HEADER, HTML]) });
      expect([res.statusCode, res.json().code]).toEqual([400, 'document_heic']);
      expect(res.json().error).toMatch(/^HEIC photos cannot be taken: please send this photo as a JPEG or PNG/);
    }
    const fr = await t.request({
      method: 'POST', url: '/api/kyc/documents', token: sender.token,
      headers: { 'accept-language': 'fr', 'x-forwarded-for': uniqueAddress(), 'content-type': 'multipart/form-data; boundary=heic' },
      payload: form({ kind: 'selfie' }, { name: 'a.heic', type: 'image/heic', data: Buffer.concat([HEIC_HEADER, HTML]) }, 'heic').payload,
    });
    expect(fr.json().error).toMatch(/^Les photos HEIC ne sont pas acceptées/);
    expect(await documents()).toBe(before);
  });

  it('refuses a WebP header followed by HTML as a proof of payment (and as a document), keeping nothing', async () => {
    const [docs, kept] = [await documents(), await proofs()];
    const fake = Buffer.concat([WEBP_HEADER, HTML]);
    const res = await proofUpload({ name: 'receipt.webp', type: 'image/webp', data: fake });
    expect([res.statusCode, res.json().code]).toEqual([400, 'proof_type']);
    expect(res.json().error).toBe('The file must be a PNG, JPEG or WebP image or a PDF document.');
    for (const header of [Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from('ffd8ffe000104a464946000101', 'hex')]) {
      const other = await proofUpload({ name: 'receipt.png', type: 'image/png', data: Buffer.concat([header, HTML]) });
      expect([other.statusCode, other.json().code]).toEqual([400, 'proof_type']);
    }
    const doc = await documentUpload({ kind: 'selfie' }, { name: 'me.webp', type: 'image/webp', data: fake });
    expect([doc.statusCode, doc.json().code]).toEqual([400, 'document_unreadable']);
    expect([await documents(), await proofs()]).toEqual([docs, kept]);
  });

  it('refuses a PDF that would run a script, start a program or carry a file, as a proof and as a document', async () => {
    const [docs, kept] = [await documents(), await proofs()];
    const dangers = [
      '/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>',
      '/OpenAction << /S /Launch /F (cmd.exe) >>',
      '/Names << /EmbeddedFiles << /Names [(a.exe) 9 0 R] >> >>',
      '/AcroForm << /XFA 9 0 R >>',
    ];
    for (const danger of dangers) {
      const pdf = pdfOf(onePageObjects(danger));
      const proof = await proofUpload({ name: 'receipt.pdf', type: 'application/pdf', data: pdf }, transferId);
      expect([proof.statusCode, proof.json().code], danger).toEqual([400, 'proof_type']);
      const doc = await documentUpload({ kind: 'proof_of_address' }, { name: 'bill.pdf', type: 'application/pdf', data: pdf });
      expect([doc.statusCode, doc.json().code], danger).toEqual([400, 'document_type']);
    }
    // A PDF with no page, or with its cross-reference table where startxref does not point.
    const noPage = pdfOf([{ value: '<< /Type /Catalog /Pages 2 0 R >>' }, { value: '<< /Type /Pages /Kids [] /Count 0 >>' }]);
    const shifted = Buffer.from(onePagePdf().toString('latin1').replace(/startxref\n(\d+)/, (_, n: string) => `startxref\n${Number(n) + 5}`), 'latin1');
    for (const pdf of [noPage, shifted]) {
      expect((await proofUpload({ name: 'receipt.pdf', type: 'application/pdf', data: pdf }, transferId)).json().code).toBe('proof_type');
      expect((await documentUpload({ kind: 'passport' }, { name: 'p.pdf', type: 'application/pdf', data: pdf })).json().code).toBe('document_type');
    }
    expect([await documents(), await proofs()]).toEqual([docs, kept]);
  });

  it('still takes a real one-page PDF and real PNG, JPEG and WebP images, as proofs and as documents', async () => {
    const pdf = onePagePdf();
    const id = (await createTransfer(t, sender.id)).id;
    for (const [name, type, data] of [['receipt.pdf', 'application/pdf', pdf], ['receipt.png', 'image/png', await photo('png')],
      ['receipt.jpg', 'image/jpeg', await photo('jpeg')], ['receipt.webp', 'image/webp', await photo('webp')]] as const) {
      const res = await proofUpload({ name, type, data }, id);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ filename: name, mime_type: type });
    }
    // A proof is kept as uploaded.
    const served = await t.request({ method: 'GET', url: `/api/transfer-requests/${id}/proof`, token: sender.token });
    expect(served.rawPayload.equals(await photo('webp'))).toBe(true);

    for (const [fields, type, data] of [
      [{ kind: 'passport' }, 'application/pdf', pdf], [{ kind: 'selfie' }, 'image/jpeg', await photo('jpeg')],
      [{ kind: 'id_card', side: 'front' }, 'image/png', await photo('png')], [{ kind: 'id_card', side: 'back' }, 'image/webp', await photo('webp')],
    ] as const) {
      const res = await documentUpload(fields, { name: 'doc', type, data });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.content_type).toBe(type);
    }
  });
});
