// Where a machine-readable zone's fillers belong (ICAO 9303 part 4-6), to put back what OCR makes
// of them: a run of `<` read as `L`, `K` or `C`, a character inserted in a run or a run read a few
// characters short or long. Only the name's tail and the optional fields are touched (their
// content is fillers by layout); the fields under check digits are left as read, so whatever this
// gets wrong still fails a check digit and the reading is said unreliable, never wrong.

export const MRZ_FORMATS = [
  { name: 'TD3', lines: 2, length: 44, codes: /^[PV]/ },
  { name: 'TD2', lines: 2, length: 36, codes: /^[ACIPV]/ },
  { name: 'TD1', lines: 3, length: 30, codes: /^[ACI]/ },
] as const;
export type MrzFormat = (typeof MRZ_FORMATS)[number];

/**
 * How far a read line's length may stray from its layout's: a zone is first looked for with lines
 * a character or two off, then, when none fits, with fillers read several characters short or long.
 */
export const STRAYS = [2, 6] as const;

/**
 * A name field (`SURNAME<<GIVEN<NAMES<<<…`): a name never holds `<<<`, so from there on all is
 * filler; so are single L, K or C at its end (`CHLOE<L<L<L`), though one lone initial is a real one.
 * A field whose end shows no filler must have about its length (it is then some other line).
 */
function fitName(field: string, length: number, stray: number): string | null {
  const end = field.indexOf('<<<');
  const cut = (end >= 0 ? field.slice(0, end) : field.replace(/<+$/, '')).replace(/(?:<[LKC]){2,}$/, '');
  const fillerEnd = end >= 0 || cut.length < field.replace(/<+$/, '').length;
  if (cut.length > length || (!fillerEnd && Math.abs(field.length - length) > stray)) return null;
  return cut + '<'.repeat(length - cut.length);
}

/**
 * A line of fixed fields around one optional field (`head` characters before it, `tail` after):
 * the optional field is all fillers when it holds nothing else than fillers and their look-alikes,
 * a character alone between fillers is one, and a run read short or long is fitted at its end.
 */
function fitOptional(line: string, head: number, optional: number, tail: number): string | null {
  if (line.length < head + tail) return null;
  let mid = line.slice(head, line.length - tail);
  if (/^[<LKC]*$/.test(mid)) mid = '';
  mid = mid.replace(/(?<=<<)[A-Z0-9](?=<<)/g, '<').replace(/<+$/, '');
  if (mid.length > optional) return null;
  return line.slice(0, head) + mid + '<'.repeat(optional - mid.length) + line.slice(line.length - tail);
}

/** Each line's layout: a name field after `prefix` characters, or an optional field between fixed ones. */
const LAYOUTS: Record<MrzFormat['name'], ReadonlyArray<{ name: number } | { head: number; optional: number; tail: number }>> = {
  TD3: [{ name: 5 }, { head: 28, optional: 14, tail: 2 }],
  TD2: [{ name: 5 }, { head: 28, optional: 7, tail: 1 }],
  TD1: [{ head: 15, optional: 15, tail: 0 }, { head: 18, optional: 11, tail: 1 }, { name: 0 }],
};

/** One read line fitted to its place in a format, or null when it cannot be that line. */
export function fitLine(line: string, format: MrzFormat, index: number, stray: number): string | null {
  if (line.length - format.length > stray) return null;
  if (index === 0 && !format.codes.test(line)) return null;
  const layout = LAYOUTS[format.name][index]!;
  if ('name' in layout) {
    const name = fitName(line.slice(layout.name), format.length - layout.name, stray);
    return name === null ? null : line.slice(0, layout.name) + name;
  }
  if (format.length - line.length > stray) return null;
  return fitOptional(line, layout.head, layout.optional, layout.tail);
}

/**
 * A passport's zone with one character of its personal number dropped, for each character, for a
 * data line read a character long: OCR inserts one (`12041597ZE184226B`). Only that field is tried
 * this way: its own check digit and the zone's composite one must then both hold.
 */
export function droppedInsertions(lines: string[]): string[][] {
  const [first, second] = lines;
  if (lines.length !== 2 || second?.length !== 44) return [];
  const field = second.slice(28, 42);
  const out: string[][] = [];
  for (let i = 0; i < field.length; i++) {
    if (field[i] === '<') continue;
    const shorter = `${field.slice(0, i)}${field.slice(i + 1)}<`;
    out.push([first!, second.slice(0, 28) + shorter + second.slice(42)]);
  }
  return out;
}
