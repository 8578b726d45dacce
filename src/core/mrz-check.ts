import { parse } from 'mrz';
import { droppedInsertions, fitLine, MRZ_FORMATS, STRAYS } from './mrz-layout.js';
import type { MrzCheckField, MrzResult } from './mrz.js';

// Reading a machine-readable zone's text (ICAO 9303): cleaning what OCR or a reviewer gave, fixing
// the usual OCR confusions where a field's type says what a character must be, verifying every
// check digit with the `mrz` package, and comparing the name and date of birth with the profile.
// Pure: the OCR (sharp + tesseract.js) is in server/modules/kyc/mrz-ocr.ts.

/** A zone's text normalised: upper case, spaces dropped, look-alikes of `<` made `<`. */
export function cleanLine(line: string): string {
  return line.toUpperCase().replace(/[«‹([{]/g, '<').replace(/\s+/g, '').replace(/[^A-Z0-9<]/g, '');
}

/** The ICAO 9303 check digit (weights 7-3-1; `<` is 0, A-Z are 10-35). */
export function checkDigit(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const v = c === '<' ? 0 : c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55;
    sum += v * [7, 3, 1][i % 3]!;
  }
  return String(sum % 10);
}

const TO_DIGIT: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6', T: '7' };
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G' };

const digits = (s: string) => s.replace(/[A-Z]/g, (c) => TO_DIGIT[c] ?? c);
const letters = (s: string) => s.replace(/[0-9]/g, (c) => TO_LETTER[c] ?? c);

function fix(line: string, spans: ReadonlyArray<readonly [number, number, (s: string) => string]>): string {
  let out = line;
  for (const [start, end, f] of spans) out = out.slice(0, start) + f(out.slice(start, end)) + out.slice(end);
  return out;
}

/**
 * Fixes the confusions OCR makes (O/0, I/1, B/8, S/5…) where the field's type leaves no doubt:
 * digits in dates and check digits, letters in codes and names. The document number may mix both
 * and is left as read (its check digit says whether it is right).
 */
export function fixConfusions(input: string[]): string[] {
  const f = formatOf(input);
  // A filler `<` read as L, K or C: between two fillers; in a name, only within the fillers that
  // end it (after three or more), since a lone initial between names is real.
  const lines = input.map((l, i) => ((i === input.length - 1 && f?.name === 'TD1') || (i === 0 && f?.name !== 'TD1')
    ? l.replace(/(?<=<<<)[LKC](?=<*$)/g, '<')
    : l.replace(/(?<=<)[LKC](?=<)/g, '<')));
  if (!f) return lines;
  if (f.name === 'TD1') {
    const [a, b, c] = lines as [string, string, string];
    return [
      fix(a, [[0, 5, letters], [14, 15, digits]]),
      fix(b, [[0, 7, digits], [7, 8, letters], [8, 15, digits], [15, 18, letters], [29, 30, digits]]),
      letters(c),
    ];
  }
  const [a, b] = lines as [string, string];
  const n = f.length;
  return [
    letters(a),
    fix(b, [[9, 10, digits], [10, 13, letters], [13, 20, digits], [20, 21, letters], [21, 28, digits], [n - 2, n, digits]]),
  ];
}

function formatOf(lines: string[]) {
  return MRZ_FORMATS.find((f) => f.lines === lines.length && lines.every((l) => l.length === f.length)) ?? null;
}

/**
 * Picks a zone out of OCR text: the last run of 2 or 3 consecutive lines that fit one format's
 * layout, their fillers put back where the layout has them (core/mrz-layout.ts); with, for each
 * line, whether it was read longer than its layout (a character inserted somewhere).
 */
function locateZone(text: string): { lines: string[]; longer: boolean[] } | null {
  const raw = text.split(/\r?\n/).map(cleanLine).filter((l) => l.length >= 25 && /<</.test(l) || /^[A-Z0-9<]{28,46}$/.test(l) && l.includes('<'));
  for (const stray of STRAYS) {
    for (const f of MRZ_FORMATS) {
      for (let end = raw.length; end >= f.lines; end--) {
        const read = raw.slice(end - f.lines, end);
        const run = read.map((l, i) => fitLine(l, f, i, stray));
        if (run.every((l): l is string => l !== null)) return { lines: run, longer: read.map((l) => l.length > f.length) };
      }
    }
  }
  return null;
}

export function findZone(text: string): string[] | null {
  return locateZone(text)?.lines ?? null;
}

/** Letters only, without accents, case, hyphens or spaces' order mattering: `Élodie-Anne` = `ELODIE ANNE`. */
export function nameTokens(name: string): string[] {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/[^A-Z]+/g, ' ').trim().split(' ').filter(Boolean);
}

/** The zone's name against the profile's full name: the same words, in any order. */
export function namesMatch(surname: string, givenNames: string, fullName: string): boolean {
  const zone = nameTokens(`${surname} ${givenNames}`).sort();
  const profile = nameTokens(fullName).sort();
  return zone.length > 0 && zone.join(' ') === profile.join(' ');
}

/** `YYMMDD` as a date: a birth date is in the past (so `30` is 1930 in 2026), an expiry within 50 years to come. */
export function mrzDate(yymmdd: string | null | undefined, kind: 'birth' | 'expiry', today: Date): string | null {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const thisYear = today.getUTCFullYear();
  const century = Math.floor(thisYear / 100) * 100;
  let year = century + yy;
  if (kind === 'birth' && year > thisYear) year -= 100;
  if (kind === 'expiry' && year > thisYear + 50) year -= 100;
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  const d = new Date(Date.UTC(year, mm - 1, dd));
  if (d.getUTCMonth() !== mm - 1 || d.getUTCDate() !== dd) return null;
  return d.toISOString().slice(0, 10);
}

export interface ProfileFacts { full_name: string | null; date_of_birth: string | null }

const CHECKS: Record<string, MrzCheckField> = {
  documentNumberCheckDigit: 'document_number', birthDateCheckDigit: 'birth_date', expirationDateCheckDigit: 'expiry_date',
  personalNumberCheckDigit: 'personal_number', compositeCheckDigit: 'composite',
};

/** An unreadable result: no zone found in the photo, or none whose check digits hold ("could not be read reliably"). */
export function unreadable(now: Date): MrzResult {
  return {
    status: 'unreadable', lines: [], format: null, valid: false, checks: {}, document_code: null, issuing_state: null,
    document_number: null, surname: null, given_names: null, nationality: null, birth_date: null, expiry_date: null,
    expired: null, name_matches_profile: null, birth_date_matches_profile: null, read_at: now.toISOString(),
  };
}

/**
 * Checks a zone's lines (already cleaned) and compares them with the profile. Null when they are
 * no zone of a known format (2 × 44, 2 × 36 or 3 × 30).
 */
export function checkZone(input: string[], status: 'read' | 'typed', profile: ProfileFacts, now: Date): MrzResult | null {
  const cleaned = input.map(cleanLine);
  if (!formatOf(cleaned)) return null;
  const lines = fixConfusions(cleaned);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(lines);
  } catch {
    return null;
  }
  const checks: Partial<Record<MrzCheckField, boolean>> = {};
  for (const d of parsed.details) {
    const field = d.field ? CHECKS[d.field] : undefined;
    if (field) checks[field] = d.valid;
  }
  const f = parsed.fields;
  const str = (v: string | null | undefined) => (v ? v : null);
  // Unknown state codes (test codes such as UTO) are not a check digit's failure: `valid` is the
  // check digits, and the dates being real dates.
  const birth = mrzDate(rawField(parsed, lines, 'birthDate'), 'birth', now);
  const expiry = mrzDate(rawField(parsed, lines, 'expirationDate'), 'expiry', now);
  const surname = str(f.lastName);
  const given = str(f.firstName);
  const today = now.toISOString().slice(0, 10);
  return {
    status,
    lines,
    format: parsed.format,
    valid: Object.values(checks).length > 0 && Object.values(checks).every(Boolean) && birth !== null && expiry !== null,
    checks,
    document_code: str(f.documentCode),
    issuing_state: str(f.issuingState) ?? str(rawField(parsed, lines, 'issuingState')),
    document_number: str(f.documentNumber),
    surname,
    given_names: given,
    nationality: str(f.nationality) ?? str(rawField(parsed, lines, 'nationality')),
    birth_date: birth,
    expiry_date: expiry,
    expired: expiry === null ? null : expiry < today,
    name_matches_profile: surname && profile.full_name ? namesMatch(surname, given ?? '', profile.full_name) : null,
    birth_date_matches_profile: birth && profile.date_of_birth ? birth === profile.date_of_birth : null,
    read_at: now.toISOString(),
  };
}

/** A field's characters as they stand in the zone (the `mrz` package nulls a value it finds invalid). */
function rawField(parsed: ReturnType<typeof parse>, lines: string[], field: string): string | null {
  const d = parsed.details.find((x) => x.field === field);
  if (!d) return null;
  if (d.value) return d.value;
  const r = d.ranges[0];
  return r ? (lines[r.line]?.slice(r.start, r.end).replace(/<+$/, '') ?? null) : null;
}

/**
 * What one OCR reading gives: the zone found in it when every check digit holds after cleaning,
 * else null. A zone read from a photo that still fails a check digit is as likely misread as wrong:
 * nothing of it is kept, so no reviewer reads "check digits wrong" or a name that "differs" from a
 * misreading (the photo is said unreadable and the reviewer types the zone).
 */
export function readZone(text: string, profile: ProfileFacts, now: Date): MrzResult | null {
  const zone = locateZone(text);
  if (!zone) return null;
  const result = checkZone(zone.lines, 'read', profile, now);
  if (result?.valid) return result;
  // A passport's data line read a character long whose personal number fails: OCR inserted one.
  if (result?.format !== 'TD3' || !zone.longer[1] || result.checks.personal_number !== false) return null;
  for (const lines of droppedInsertions(zone.lines)) {
    const other = checkZone(lines, 'read', profile, now);
    if (other?.valid) return other;
  }
  return null;
}
