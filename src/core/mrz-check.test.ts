import { describe, expect, it } from 'vitest';
import { MrzResultSchema } from './mrz';
import { checkDigit, checkZone, cleanLine, findZone, fixConfusions, mrzDate, namesMatch, readZone } from './mrz-check';

// ICAO 9303's own specimens (part 4, appendix A: Anna Maria Eriksson, Utopia).
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
const NOW = new Date('2026-11-26T12:00:00Z');
const ANNA = { full_name: 'Anna-Maria Eriksson', date_of_birth: '1974-08-12' };

describe('check digits (ICAO 9303, weights 7-3-1)', () => {
  it('computes the specimen\'s digits', () => {
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('120415')).toBe('9');
    expect(checkDigit('D23145890')).toBe('7');
    expect(checkDigit('<<<<<<<<<<<<<<')).toBe('0');
  });
});

describe('checking a zone', () => {
  it('checks a passport zone and compares it with the profile (name in any case, accents and hyphens aside)', () => {
    const r = checkZone(TD3, 'read', ANNA, NOW)!;
    expect(MrzResultSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      format: 'TD3', valid: true, document_number: 'L898902C3', surname: 'ERIKSSON', given_names: 'ANNA MARIA', issuing_state: 'UTO',
      birth_date: '1974-08-12', expiry_date: '2012-04-15', expired: true, name_matches_profile: true, birth_date_matches_profile: true,
      checks: { document_number: true, birth_date: true, expiry_date: true, personal_number: true, composite: true },
    });
  });

  it('checks an ID card zone (3 × 30)', () => {
    expect(checkZone(TD1, 'typed', ANNA, NOW)).toMatchObject({ format: 'TD1', valid: true, document_number: 'D23145890', birth_date: '1974-08-12' });
  });

  it('flags the one field whose check digit is wrong, and a profile that differs', () => {
    const wrong = [TD3[0]!, `L898902C37${TD3[1]!.slice(10)}`];
    const r = checkZone(wrong, 'read', { full_name: 'Anna Eriksson', date_of_birth: '1974-08-13' }, NOW)!;
    expect(r.valid).toBe(false);
    expect(r.checks).toMatchObject({ document_number: false, birth_date: true, expiry_date: true });
    expect([r.name_matches_profile, r.birth_date_matches_profile]).toEqual([false, false]);
  });

  it('says nothing of the profile it does not have', () => {
    expect(checkZone(TD3, 'read', { full_name: null, date_of_birth: null }, NOW)).toMatchObject({ name_matches_profile: null, birth_date_matches_profile: null });
  });

  it('is null for lines that are no zone', () => {
    expect(checkZone(['P<UTOERIKSSON', 'L898902C3'], 'typed', ANNA, NOW)).toBeNull();
  });
});

describe('reading OCR text', () => {
  it('fixes O/0, I/1, B/8, S/5 where the field must be digits, and letters where it must be letters', () => {
    const misread = ['P<UT0ERIKSS0N<<ANNA<MAR1A<<<<<<<<<<<<<<<<<<<', 'L898902C36UT07408I22F12O4I59ZE184226B<<<<<IO'];
    expect(fixConfusions(misread)).toEqual(TD3);
    expect(checkZone(misread, 'read', ANNA, NOW)?.valid).toBe(true);
  });

  it('takes a filler read as L between fillers or at the end of a name for a filler', () => {
    expect(fixConfusions([TD1[0]!.slice(0, 28) + 'L<', TD1[1]!, 'ERIKSSON<<ANNA<MARIA<<<<<<<L<<'])).toEqual(TD1);
  });

  it('finds the zone among other printed lines, spaces and a character too many in the fillers', () => {
    const text = ['PASSPORT PASSEPORT', 'Surname / Nom', 'P<UTO ERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<', `${TD3[1]}`, ''].join('\n');
    expect(findZone(text)).toEqual(TD3);
    expect(findZone('no zone here\nat all')).toBeNull();
  });

  it('cleans a typed line: case, spaces and look-alikes of <', () => {
    expect(cleanLine('p<uto eriksson«anna')).toBe('P<UTOERIKSSON<ANNA');
  });
});

// Readings tesseract gave of generated passport pages (Chloé Dupont's TD3 zone in DejaVu Sans Mono
// and Liberation Mono, 24 to 40 px): the fillers come back as runs of L, K and C, a run a few
// characters short or long, a filler too few before the last check digits.
const CHLOE = ['P<FRADUPONT<<CHLOE<<<<<<<<<<<<<<<<<<<<<<<<<<', '18FR450219FRA9206148F3304020<<<<<<<<<<<<<<06'];
const CHLOE_PROFILE = { full_name: 'Chloé Dupont', date_of_birth: '1992-06-14' };
const READINGS = [
  'P<FRADUPONT<<CHLOE<<<<<<<<<<L<<LLC<<L<L\n18FR450219FRA9206148F3304020<<<<<<<<<<<<<<06',
  'P<FRADUPONT<<CHLOE<<<<<<<<LLLLLLLLLLLLLLLLLKL\n18FR450219FRA9206148F3304020<<<<<<LL06',
  'P<FRADUPONT<<CHLOE<<<<LLLLLLLLLLLLLLLLLLLLLL\n18FR450219FRA9206148F3304020<<<<<<<LL06',
  'P<FRADUPONT<<CHLOE<<<<<<<<L<LLLLLLLLLLLLLLLLL\n18FR450219FRA9206148F3304020<<<<<<<<<<<<<<06',
  'P<FRADUPONT<<CHLOE<<<<<<<<<<<<<<<<<<<<<<<<\n18FR450219FRA9206148F3304020<<<<<<<<<<<<<<6',
  'P<FRADUPONT<<CHLOE<L<L<L<L<L\n18FR450219FRA9206148F3304020<<<<<<<<<<<<<<06',
];

describe('fillers OCR misread, put back by the zone\'s layout', () => {
  it.each(READINGS)('reads %s as Chloé Dupont\'s zone, every check digit valid, her name equal to the profile', (text) => {
    const r = readZone(text, CHLOE_PROFILE, NOW);
    expect(r).toMatchObject({ format: 'TD3', valid: true, surname: 'DUPONT', given_names: 'CHLOE', name_matches_profile: true, birth_date_matches_profile: true, expired: false });
    expect(r!.lines[0]).toBe(CHLOE[0]);
    // The personal number's check digit read or put back as a filler: both are ICAO's.
    expect(r!.lines[1]!.replace(/<(?=6$)/, '0')).toBe(CHLOE[1]);
  });

  it('drops a character OCR inserted in a passport\'s personal number when both its check digits then hold', () => {
    const r = readZone('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UT07408122F12041597ZE184226B<<<<<10', ANNA, NOW);
    expect(r).toMatchObject({ valid: true, lines: TD3 });
    // Read at its length with a letter misread (Z as 7), nothing is dropped: it is not read.
    expect(readZone('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<\nL898902C36UT07408122F12041597E184226B<<<<<10', ANNA, NOW)).toBeNull();
  });

  it('keeps a lone initial after the given names: it is part of the name', () => {
    expect(findZone('P<FRADUPONT<<CHLOE<L<<<<<<<LLLLLLLLLLLLLLLLL\n' + CHLOE[1])![0]).toBe('P<FRADUPONT<<CHLOE<L<<<<<<<<<<<<<<<<<<<<<<<<');
  });

  it('takes a character alone inside a run of fillers for a filler, in an optional field', () => {
    expect(findZone(`${CHLOE[0]}\n18FR450219FRA9206148F3304020<<<<<5<<<<<<<<<06`)![1]).toBe(CHLOE[1]);
    expect(findZone('I<UTOD231458907<<<<<<L<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<')).toEqual(TD1);
  });

  it('says a zone that still fails its check digits after cleaning could not be read: nothing of it is kept', () => {
    // The filler run before the last check digits read as LLL<B: no layout makes it a filler run.
    expect(readZone('P<FRADUPONT<<CHLOE<<<<<LLLLLLLLLLLLLLLLLLLLKL\n18FR450219FRA9206148F3304020<<<<<<<LLL<B6', CHLOE_PROFILE, NOW)).toBeNull();
    // A noisy photo's reading: no zone at all.
    expect(readZone('PLFRADUPONT<SCHLOE<S<\n18FR450219FRAG206F48F33040204<<R<<', CHLOE_PROFILE, NOW)).toBeNull();
    // A wrong check digit read from a photo is no verdict on the document either.
    expect(readZone([TD3[0], `L898902C37${TD3[1]!.slice(10)}`].join('\n'), ANNA, NOW)).toBeNull();
  });
});

describe('dates and names', () => {
  it('reads a birth date in the past and an expiry up to 50 years ahead', () => {
    expect(mrzDate('740812', 'birth', NOW)).toBe('1974-08-12');
    expect(mrzDate('150101', 'birth', NOW)).toBe('2015-01-01');
    expect(mrzDate('300101', 'birth', NOW)).toBe('1930-01-01');
    expect(mrzDate('360101', 'expiry', NOW)).toBe('2036-01-01');
    expect(mrzDate('990231', 'expiry', NOW)).toBeNull();
  });

  it('compares names word by word, without accents, case or order', () => {
    expect(namesMatch('NDONG', 'JEAN', 'Jean Ndong')).toBe(true);
    expect(namesMatch('LEFEVRE', 'ELODIE ANNE', 'Élodie-Anne Lefèvre')).toBe(true);
    expect(namesMatch('LEFEVRE', 'ELODIE', 'Élodie-Anne Lefèvre')).toBe(false);
  });
});
