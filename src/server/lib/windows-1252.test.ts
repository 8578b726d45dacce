import { describe, expect, it } from 'vitest';
import { decodeWindows1252, encodeWindows1252 } from './windows-1252.js';

// The expected characters are written out here, not taken from the module's table, so a wrong
// entry in the table fails this test (docs/rules/screening.md#list-files, "Encoding").
const KNOWN = ([
  [0x8a, 'Š'], [0x9a, 'š'], [0x8e, 'Ž'], [0x9e, 'ž'], [0x8c, 'Œ'], [0x9c, 'œ'], [0x9f, 'Ÿ'], [0x80, '€'],
  [0x91, '‘'], [0x92, '’'], [0x93, '“'], [0x94, '”'], [0x96, '–'], [0x97, '—'], [0xe9, 'é'],
] as Array<[number, string]>).map(([byte, char]) => ({ hex: byte.toString(16).toUpperCase(), byte, char }));

describe('decodeWindows1252', () => {
  it.each(KNOWN)('reads byte 0x$hex as $char', ({ byte, char }) => {
    expect(decodeWindows1252(Uint8Array.of(byte))).toBe(char);
  });

  it('reads a name with carons as its letters', () => {
    // "Vojislav ŠEŠELJ – Šešelj" in Windows-1252, byte by byte.
    const bytes = Uint8Array.of(
      0x56, 0x6f, 0x6a, 0x69, 0x73, 0x6c, 0x61, 0x76, 0x20, 0x8a, 0x45, 0x8a, 0x45, 0x4c, 0x4a, 0x20, 0x96, 0x20, 0x8a, 0x65, 0x9a, 0x65, 0x6c, 0x6a,
    );
    expect(decodeWindows1252(bytes)).toBe('Vojislav ŠEŠELJ – Šešelj');
  });

  it('keeps ASCII and Latin-1 as they are, and the five undefined bytes as their C1 code points', () => {
    expect(decodeWindows1252(Uint8Array.of(0x41, 0x0a, 0xa0, 0xc4, 0xff))).toBe('A\n\u00a0Äÿ');
    expect(decodeWindows1252(Uint8Array.of(0x81, 0x8d, 0x8f, 0x90, 0x9d))).toBe('\u0081\u008d\u008f\u0090\u009d');
  });

  it('gives one character per byte, whatever the length and wherever a chunk is cut', () => {
    const bytes = Uint8Array.from({ length: 50_000 }, (_, i) => i % 256);
    const whole = decodeWindows1252(bytes);
    expect(whole).toHaveLength(bytes.length);
    let pieces = '';
    for (let i = 0; i < bytes.length; i += 777) pieces += decodeWindows1252(bytes.subarray(i, i + 777));
    expect(pieces).toBe(whole);
  });
});

describe('encodeWindows1252', () => {
  it.each(KNOWN)('writes $char as 0x$hex', ({ byte, char }) => {
    expect([...encodeWindows1252(char)]).toEqual([byte]);
  });

  it('is the decoder exactly reversed, all 256 bytes', () => {
    const all = Uint8Array.from({ length: 256 }, (_, b) => b);
    expect([...encodeWindows1252(decodeWindows1252(all))]).toEqual([...all]);
  });

  it('refuses a character the encoding does not have', () => {
    expect(() => encodeWindows1252('Ωmega')).toThrow(RangeError);
    expect(() => encodeWindows1252('\u008a')).toThrow(RangeError); // Latin-1's 0x8A is not Windows-1252's
  });
});
