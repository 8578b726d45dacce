import { isUtf8 } from 'node:buffer';
import { decodeWindows1252 } from '@server/lib/windows-1252.js';

/** What a parser reads: a Node Readable or any async iterable of bytes (or text already decoded). */
export type ByteSource = AsyncIterable<Uint8Array | string>;

type TextEncoding = 'utf-8' | 'windows-1252';

/**
 * Text from bytes, chunk by chunk. A UTF-8 byte-order mark fixes UTF-8 (and is dropped);
 * otherwise the text is read as UTF-8 until a byte sequence that UTF-8 forbids, and from there
 * as Windows-1252, the encoding OFAC's legacy files have used: up to that byte the two agree
 * for every ASCII file, and a Windows-1252 file with accents is almost never valid UTF-8.
 * Windows-1252 is read with the standard's table (lib/windows-1252.ts), not TextDecoder, which on
 * Node 20 reads it as Latin-1 ("Š" would be U+008A); one byte is one character, so no state.
 */
export async function* decodeText(source: ByteSource): AsyncGenerator<string> {
  let mode = 'guess' as TextEncoding | 'guess';
  let first = true;
  let carry: Uint8Array = new Uint8Array(0);
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  for await (const chunk of source) {
    if (typeof chunk === 'string') {
      if (first && chunk.charCodeAt(0) === 0xfeff) yield chunk.slice(1);
      else if (chunk) yield chunk;
      first = false;
      continue;
    }
    let bytes: Uint8Array = carry.length ? concat(carry, chunk) : chunk;
    carry = new Uint8Array(0);
    if (first) {
      if (bytes.length < 3 && isBomPrefix(bytes)) {
        carry = bytes;
        continue;
      }
      first = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        bytes = bytes.subarray(3);
        mode = 'utf-8';
      }
    }
    if (mode === 'windows-1252') {
      yield decodeWindows1252(bytes);
      continue;
    }
    if (mode === 'utf-8') {
      yield utf8.decode(bytes, { stream: true });
      continue;
    }
    // Guessing: keep back a sequence cut at the chunk's end, check the rest.
    const cut = completeLength(bytes);
    const whole = bytes.subarray(0, cut);
    if (isUtf8(whole)) {
      carry = bytes.slice(cut);
      if (whole.length) yield utf8.decode(whole);
    } else {
      mode = 'windows-1252';
      yield decodeWindows1252(bytes);
    }
  }
  if (carry.length) {
    // A file that ends inside a UTF-8 sequence was not UTF-8 there.
    if (mode === 'guess' && !isUtf8(carry)) mode = 'windows-1252';
    yield mode === 'windows-1252' ? decodeWindows1252(carry) : utf8.decode(carry);
  }
  if (mode === 'utf-8') {
    const rest = utf8.decode();
    if (rest) yield rest;
  }
}

function isBomPrefix(b: Uint8Array): boolean {
  return b[0] === 0xef && (b.length < 2 || b[1] === 0xbb);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The length of the bytes that end on a whole UTF-8 sequence (at most 3 bytes kept back). */
function completeLength(b: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, b.length); back++) {
    const byte = b[b.length - back]!;
    if (byte < 0x80) return b.length;
    if (byte >= 0xc0) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return need > back ? b.length - back : b.length;
    }
  }
  return b.length;
}
