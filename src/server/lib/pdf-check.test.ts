import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfProblem } from './pdf-check.js';

// PDFs built byte by byte (as tests/support/pdf-files.ts builds them for the API tests): numbered
// objects, a cross-reference table whose offsets are where each object starts, trailer, %%EOF.
interface PdfObject { value: string; stream?: Buffer }

function pdfOf(objects: PdfObject[], opts: { trailer?: string; after?: string } = {}): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  const size = () => chunks.reduce((n, c) => n + c.length, 0);
  objects.forEach((o, i) => {
    offsets.push(size());
    chunks.push(o.stream
      ? Buffer.concat([Buffer.from(`${i + 1} 0 obj\n${o.value.replace(/>>\s*$/, ` /Length ${o.stream.length} >>`)}\nstream\n`, 'latin1'), o.stream, Buffer.from('\nendstream\nendobj\n')])
      : Buffer.from(`${i + 1} 0 obj\n${o.value}\nendobj\n`, 'latin1'));
  });
  const xref = size();
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  chunks.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${opts.trailer ?? ''}>>\n`
    + `startxref\n${xref}\n%%EOF\n${opts.after ?? ''}`, 'latin1'));
  return Buffer.concat(chunks);
}

const onePageObjects = (catalogExtra = ''): PdfObject[] => [
  { value: `<< /Type /Catalog /Pages 2 0 R ${catalogExtra}>>` },
  { value: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
  { value: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>' },
  { value: '<< >>', stream: Buffer.from('BT /F1 18 Tf 72 720 Td (Paid) Tj ET') },
];
const onePagePdf = () => pdfOf(onePageObjects());

function objectStream(objects: { number: number; value: string }[]): PdfObject {
  let header = '';
  let body = '';
  for (const o of objects) {
    header += `${o.number} ${body.length} `;
    body += `${o.value}\n`;
  }
  return { value: `<< /Type /ObjStm /N ${objects.length} /First ${header.length} /Filter /FlateDecode >>`, stream: deflateSync(Buffer.from(header + body, 'latin1')) };
}

// An uploaded PDF is judged by its structure and refused when it holds content a viewer would
// run or unpack (docs/rules/know-your-sender.md#documents).

describe('pdfProblem', () => {
  it('takes a one-page PDF with its cross-reference table', () => {
    expect(pdfProblem(onePagePdf())).toBeNull();
  });

  it('takes a PDF whose page is inside a compressed object stream, found through a cross-reference stream', () => {
    const objects = onePageObjects();
    const pdf = pdfOf([objects[0]!, objects[1]!, objectStream([{ number: 4, value: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>' }])]);
    // A cross-reference stream at the end instead of the table: startxref points at its object.
    const text = pdf.toString('latin1');
    const xref = text.lastIndexOf('xref\n0 ');
    const body = text.slice(0, xref);
    const xrefObject = `9 0 obj\n<< /Type /XRef /Size 10 /Root 1 0 R /W [1 2 1] /Length 0 >>\nstream\n\nendstream\nendobj\n`;
    const rebuilt = Buffer.from(`${body}${xrefObject}startxref\n${xref}\n%%EOF\n`, 'latin1');
    expect(pdfProblem(rebuilt)).toBeNull();
  });

  it('refuses what only starts like a PDF: a program, no cross-reference, a wrong startxref, no page, bytes after %%EOF', () => {
    expect(pdfProblem(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from('4d5a90000300000004000000ffff0000b800', 'hex'), Buffer.alloc(200)]))).toBe('no %%EOF at the end');
    expect(pdfProblem(Buffer.from('MZ\x90\x00%PDF-1.4'))).toBe('no PDF header');
    const noXref = Buffer.from(['%PDF-1.4', '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj', '3 0 obj << /Type /Page >> endobj', 'trailer << /Root 1 0 R >>', '%%EOF', ''].join('\n'));
    expect(pdfProblem(noXref)).toMatch(/cross-reference/);
    const good = onePagePdf().toString('latin1');
    const shifted = good.replace(/startxref\n(\d+)/, (_, n: string) => `startxref\n${Number(n) + 7}`);
    expect(pdfProblem(Buffer.from(shifted, 'latin1'))).toMatch(/cross-reference/);
    const noPage = pdfOf([{ value: '<< /Type /Catalog /Pages 2 0 R >>' }, { value: '<< /Type /Pages /Kids [] /Count 0 >>' }]);
    expect(pdfProblem(noPage)).toBe('no page');
    expect(pdfProblem(pdfOf(onePageObjects(), { after: '<html><script>alert(1)</script></html>' }))).toBe('no %%EOF at the end');
  });

  it('refuses scripts, launch actions, embedded files, Flash and XML forms, however their names are written', () => {
    const js = (extra: string) => pdfProblem(pdfOf(onePageObjects(extra)));
    expect(js('/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>')).toBe('holds /JavaScript');
    expect(js('/AA << /O << /S /J#61vaScript /J#53 (x) >> >>')).toBe('holds /JavaScript');
    expect(js('/OpenAction << /S /Launch /F (cmd.exe) >>')).toBe('holds /Launch');
    expect(js('/Names << /EmbeddedFiles << /Names [] >> >>')).toBe('holds /EmbeddedFiles');
    expect(js('/AcroForm << /XFA 9 0 R >>')).toBe('holds /XFA');
    expect(js('/RichMedia 9 0 R')).toBe('holds /RichMedia');
    // A harmless open action (go to the first page) is kept.
    expect(js('/OpenAction [3 0 R /Fit]')).toBeNull();
  });

  it('finds a script hidden in a compressed object stream, and refuses an object stream it cannot read', () => {
    const objects = onePageObjects();
    const hidden = pdfOf([...objects, objectStream([{ number: 7, value: '<< /S /JavaScript /JS (app.alert(1)) >>' }])]);
    expect(pdfProblem(hidden)).toBe('holds /JavaScript');
    const unreadable = pdfOf([...objects, { value: '<< /Type /ObjStm /N 1 /First 4 /Filter /LZWDecode >>', stream: Buffer.from('garbage') }]);
    expect(pdfProblem(unreadable)).toBe('an object stream that cannot be read');
  });

  it('does not look for names inside a stream\'s data (compressed bytes can spell anything)', () => {
    const objects = onePageObjects();
    const image = { value: '<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /ColorSpace /DeviceGray >>', stream: Buffer.from('\x00/JS /JavaScript\x00', 'latin1') };
    expect(pdfProblem(pdfOf([...objects, image]))).toBeNull();
  });

  it('judges many streams after one object as it judges one (the shape that read the file again at each stream)', () => {
    const head = `%PDF-1.7\n1 0 obj\n<< >>\n${'stream\nxx\nendstream\n'.repeat(2_000)}`;
    const file = Buffer.from(`${head}xref\n0 1\ntrailer\n<< >>\nstartxref\n${head.length}\n%%EOF\n`, 'latin1');
    expect(pdfProblem(file)).toBe('no page');
  });

  it('refuses an encrypted PDF: its content cannot be checked', () => {
    expect(pdfProblem(pdfOf(onePageObjects(), { trailer: '/Encrypt 9 0 R ' }))).toBe('encrypted');
  });
});
