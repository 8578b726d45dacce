/**
 * Windows-1252, the one decoder (and encoder) the service has for it: sanctions list files
 * (screening/lists/decode.ts), reconciliation and operator statements (decodeSpreadsheetText) read it here.
 *
 * By hand, from the standard's table, not with `TextDecoder('windows-1252')`: Node 20 decodes that
 * label as Latin-1 (0x8A gives U+008A, not "Š"), and what it gives differs between Node versions.
 *
 * Windows-1252 is Latin-1 except for the bytes 0x80–0x9F, where it has the 27 characters below.
 * The five it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) decode as their C1 code points
 * (U+0081 …), as the WHATWG Encoding Standard's index does: nothing is lost (encoding gives the
 * byte back), and the checks for control characters see them as the controls they are, where
 * U+FFFD would hide which byte it was.
 */
const DIFFERENCES_FROM_LATIN_1: ReadonlyArray<readonly [byte: number, char: string]> = [
  [0x80, '\u20AC'], // € euro sign
  [0x82, '\u201A'], // ‚ single low-9 quotation mark
  [0x83, '\u0192'], // ƒ latin small letter f with hook
  [0x84, '\u201E'], // „ double low-9 quotation mark
  [0x85, '\u2026'], // … horizontal ellipsis
  [0x86, '\u2020'], // † dagger
  [0x87, '\u2021'], // ‡ double dagger
  [0x88, '\u02C6'], // ˆ modifier letter circumflex accent
  [0x89, '\u2030'], // ‰ per mille sign
  [0x8a, '\u0160'], // Š latin capital letter S with caron
  [0x8b, '\u2039'], // ‹ single left-pointing angle quotation mark
  [0x8c, '\u0152'], // Œ latin capital ligature OE
  [0x8e, '\u017D'], // Ž latin capital letter Z with caron
  [0x91, '\u2018'], // ‘ left single quotation mark
  [0x92, '\u2019'], // ’ right single quotation mark
  [0x93, '\u201C'], // “ left double quotation mark
  [0x94, '\u201D'], // ” right double quotation mark
  [0x95, '\u2022'], // • bullet
  [0x96, '\u2013'], // – en dash
  [0x97, '\u2014'], // — em dash
  [0x98, '\u02DC'], // ˜ small tilde
  [0x99, '\u2122'], // ™ trade mark sign
  [0x9a, '\u0161'], // š latin small letter s with caron
  [0x9b, '\u203A'], // › single right-pointing angle quotation mark
  [0x9c, '\u0153'], // œ latin small ligature oe
  [0x9e, '\u017E'], // ž latin small letter z with caron
  [0x9f, '\u0178'], // Ÿ latin capital letter Y with diaeresis
];

/** The UTF-16 code unit of each byte (every character of Windows-1252 is one code unit). */
const CODE_OF_BYTE: Uint16Array = (() => {
  const codes = new Uint16Array(256);
  for (let b = 0; b < 256; b++) codes[b] = b;
  for (const [b, char] of DIFFERENCES_FROM_LATIN_1) codes[b] = char.charCodeAt(0);
  return codes;
})();

/** The byte of each character, the table's inverse. */
const BYTE_OF_CODE: ReadonlyMap<number, number> = new Map(Array.from(CODE_OF_BYTE, (code, b) => [code, b] as const));

/** Characters handed to String.fromCharCode at once (well under any engine's argument limit). */
const SLICE = 8192;

/**
 * Windows-1252 bytes as text. Each byte is one character, so a file can be decoded chunk by
 * chunk, each chunk on its own: nothing is carried from one to the next.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  const codes = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) codes[i] = CODE_OF_BYTE[bytes[i]!]!;
  let text = '';
  for (let i = 0; i < codes.length; i += SLICE) text += String.fromCharCode(...codes.subarray(i, i + SLICE));
  return text;
}

/**
 * A spreadsheet's text file from its bytes (statements' CSV): UTF-8, with or without a byte-order
 * mark; bytes that are not valid UTF-8 are read as Windows-1252, what spreadsheets on Windows save
 * as CSV (Latin-1's letters included), so "é" stays "é" and "Š" is "Š".
 */
export function decodeSpreadsheetText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

/** Text as Windows-1252 bytes; a character the encoding does not have is a RangeError. */
export function encodeWindows1252(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const byte = BYTE_OF_CODE.get(text.charCodeAt(i));
    if (byte === undefined) throw new RangeError(`${JSON.stringify(text[i])} (U+${text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}) has no Windows-1252 byte`);
    out[i] = byte;
  }
  return out;
}
