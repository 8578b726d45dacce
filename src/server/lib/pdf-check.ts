import { inflateSync } from 'node:zlib';

// A PDF judged by its structure, not its first bytes (docs/rules/know-your-sender.md#documents,
// docs/rules/money-states.md): a header, a cross-reference table (with its trailer) or stream
// where `startxref` points, `%%EOF` at the end, at least one page; and nothing a viewer would
// run or unpack. The dictionaries are read outside the streams' data (compressed data would
// match by chance), and inside object streams, inflated, where dictionaries can hide too.

/**
 * Names a PDF may not hold: scripts (/JavaScript, /JS, what an /OpenAction or /AA would run),
 * programs started (/Launch), files carried inside (/EmbeddedFile(s), /GoToE), Flash
 * (/RichMedia) and XML forms (/XFA).
 */
const FORBIDDEN_NAMES = ['JavaScript', 'JS', 'Launch', 'EmbeddedFile', 'EmbeddedFiles', 'GoToE', 'RichMedia', 'XFA'];

/** Inflated object streams, at most this many bytes in all: more is no receipt or scan. */
const MAX_INFLATED_BYTES = 20 * 1024 * 1024;

const DELIMITER = '\\s/\\[\\]<>(){}%';
const NAME = new RegExp(`/[^${DELIMITER}]*`, 'g');
const nameIs = (names: string[]) => new RegExp(`/(?:${names.join('|')})(?![^${DELIMITER}])`);
const FORBIDDEN = nameIs(FORBIDDEN_NAMES);
const ENCRYPTED = nameIs(['Encrypt']);
/** PDF white space (NUL, tab, line feed, form feed, carriage return, space). */
const PADDING: ReadonlySet<number> = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const PAGE = /\/Type\s*\/Page(?![^\s/[\]<>(){}%])/;

/** A name's `#xx` escapes written out (`/J#53` is `/JS`). */
function plainNames(text: string): string {
  return text.replace(NAME, (name) => name.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
}

/** The text outside every stream's data, and the object streams' data. */
function split(data: Buffer, text: string): { outside: string; objectStreams: { dict: string; body: Buffer }[] } | null {
  const outside: string[] = [];
  const objectStreams: { dict: string; body: Buffer }[] = [];
  // Bounded repeats throughout: a file of digits or spaces costs time in proportion to its size.
  const token = /(\d{1,10}\s{1,8}\d{1,5}\s{1,8}obj\b)|(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  let pos = 0;
  let objStart = 0;
  for (let m = token.exec(text); m; m = token.exec(text)) {
    if (m[1]) {
      objStart = m.index;
      continue;
    }
    const dict = text.slice(objStart, m.index);
    const start = m.index + m[0].length;
    let end = -1;
    const length = /\/Length\s{1,8}(\d{1,10})\b(?!\s{1,8}\d{1,5}\s{1,8}R)/.exec(dict);
    if (length) {
      const at = start + Number(length[1]);
      if (/^\s*endstream/.test(text.slice(at, at + 32))) end = at;
    }
    if (end < 0) end = text.indexOf('endstream', start);
    if (end < 0) return null;
    outside.push(text.slice(pos, start));
    const names = plainNames(dict);
    if (/\/Type\s*\/ObjStm\b/.test(names)) objectStreams.push({ dict: names, body: data.subarray(start, end) });
    pos = end;
    token.lastIndex = end;
    // The next stream's dictionary starts after this one at the earliest: each stretch of the file
    // is read once, whatever a crafted file repeats (many streams after one `obj` read the whole
    // stretch again at each).
    objStart = end;
  }
  outside.push(text.slice(pos));
  return { outside: outside.join(''), objectStreams };
}

/** Where `startxref` points: a table followed by its trailer, or a cross-reference stream. */
function crossReferenceFound(text: string, end: number): boolean {
  const tail = text.slice(Math.max(0, end - 2048), end);
  const found = [...tail.matchAll(/startxref\s{1,8}(\d{1,12})\s{1,8}%%EOF/g)].at(-1);
  if (!found) return false;
  const offset = Number(found[1]);
  if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= text.length) return false;
  const at = text.slice(offset, offset + 4096);
  if (/^\s{0,8}xref\b/.test(at)) return /trailer\s{0,8}<</.test(text.slice(offset));
  const object = /^\s{0,8}\d{1,10}\s{1,8}\d{1,5}\s{1,8}obj\b([\s\S]*?)stream/.exec(at);
  return object !== null && /\/Type\s*\/XRef\b/.test(plainNames(object[1]!));
}

/**
 * Why these bytes are not a PDF taken as an upload, or null when they are: not a PDF's structure,
 * encrypted (its content cannot be checked), or holding content a viewer would run.
 */
export function pdfProblem(data: Buffer): string | null {
  const text = data.toString('latin1');
  if (!/^%PDF-(1\.[0-7]|2\.0)\b/.test(text)) return 'no PDF header';
  // Nothing after the last %%EOF but white space and padding: no second file riding behind it.
  let end = text.length;
  while (end > 0 && PADDING.has(text.charCodeAt(end - 1))) end -= 1;
  if (!text.slice(0, end).endsWith('%%EOF')) return 'no %%EOF at the end';
  if (!crossReferenceFound(text, end)) return 'no cross-reference table or stream where startxref points';
  const parts = split(data, text);
  if (!parts) return 'a stream without its end';
  let inside = '';
  let budget = MAX_INFLATED_BYTES;
  for (const stream of parts.objectStreams) {
    const filter = /\/Filter\s{0,8}(?:\[([^\]]{0,200})\]|(\/\w{1,40}))/.exec(stream.dict);
    const filters = (filter?.[1] ?? filter?.[2] ?? '').split('/').map((f) => f.trim()).filter(Boolean);
    let body: Buffer;
    if (filters.length === 0) body = stream.body;
    else if (filters.length === 1 && filters[0] === 'FlateDecode' && budget > 0) {
      try {
        body = inflateSync(stream.body, { maxOutputLength: budget });
      } catch {
        return 'an object stream that cannot be read';
      }
    } else return 'an object stream that cannot be read';
    budget -= body.length;
    inside += `\n${body.toString('latin1')}`;
  }
  const outside = plainNames(parts.outside);
  const all = `${outside}\n${plainNames(inside)}`;
  if (ENCRYPTED.test(outside)) return 'encrypted';
  const forbidden = FORBIDDEN.exec(all);
  if (forbidden) return `holds ${forbidden[0]}`;
  if (!PAGE.test(all)) return 'no page';
  return null;
}
