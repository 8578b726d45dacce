import { deflateSync } from 'node:zlib';

// Real PDFs for the upload tests, built byte by byte: numbered objects, a cross-reference table
// whose offsets are where each object starts, a trailer, startxref and %%EOF.

/** One object: its dictionary (or any other value), and a stream's data when it has one. */
export interface PdfObject { value: string; stream?: Buffer }

/** A PDF of the given objects (object 1 is the catalog), each at the offset its xref entry says. */
export function pdfOf(objects: PdfObject[], opts: { trailer?: string; after?: string } = {}): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let size = chunks[0]!.length;
  const offsets: number[] = [];
  const add = (b: Buffer) => { chunks.push(b); size += b.length; };
  objects.forEach((object, i) => {
    offsets.push(size);
    if (object.stream) {
      add(Buffer.from(`${i + 1} 0 obj\n${object.value.replace(/>>\s*$/, ` /Length ${object.stream.length} >>`)}\nstream\n`, 'latin1'));
      add(object.stream);
      add(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else {
      add(Buffer.from(`${i + 1} 0 obj\n${object.value}\nendobj\n`, 'latin1'));
    }
  });
  const xref = size;
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  add(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`
    + `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${opts.trailer ?? ''}>>\nstartxref\n${xref}\n%%EOF\n${opts.after ?? ''}`, 'latin1'));
  return Buffer.concat(chunks);
}

/** The three objects of a one-page document, with text drawn on its page. */
export function onePageObjects(catalogExtra = ''): PdfObject[] {
  return [
    { value: `<< /Type /Catalog /Pages 2 0 R ${catalogExtra}>>` },
    { value: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { value: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>' },
    { value: '<< >>', stream: Buffer.from('BT /F1 18 Tf 72 720 Td (Paid 100.00 EUR) Tj ET') },
    { value: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>' },
  ];
}

/** A minimal valid PDF: one page with a line of text. */
export const onePagePdf = (): Buffer => pdfOf(onePageObjects());

/** An object stream (PDF 1.5) holding the given objects, compressed: where dictionaries can hide. */
export function objectStream(objects: { number: number; value: string }[]): PdfObject {
  let header = '';
  let body = '';
  for (const o of objects) {
    header += `${o.number} ${body.length} `;
    body += `${o.value}\n`;
  }
  const data = deflateSync(Buffer.from(header + body, 'latin1'));
  return { value: `<< /Type /ObjStm /N ${objects.length} /First ${header.length} /Filter /FlateDecode >>`, stream: data };
}
