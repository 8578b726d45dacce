// docs/rules/screening.md#explanation: each qualifier says what the comparison found (matches,
// differs, unknown) and what it did to the score (raised, lowered, none), the latter read from
// the score itself — never "lowered" for a match that could raise nothing.
import { describe, expect, it } from 'vitest';
import { effectOf, qualify, readQualifier } from './qualifiers.js';
import type { ListedEntry } from './types.js';

const listed: ListedEntry = { source: 'test', list_id: '1', names: ['DOE, John'], kind: 'person', birth_dates: ['1975-03-03'], countries: ['GA'] };
const said = (nameScore: number, query: { birth_date?: string; country?: string }, entry: ListedEntry = listed) =>
  qualify(nameScore, { name: 'John Doe', ...query }, 'person', entry).effects.map((e) => [e.qualifier, e.outcome, e.effect, e.query, e.listed]);

describe('each qualifier on the explanation', () => {
  it('the same date of birth matches: no change when the name already scored 1, raised below 1', () => {
    expect(said(1, { birth_date: '1975-03-03' })[0]).toEqual(['birth_date', 'matches', 'none', '1975-03-03', '1975-03-03']);
    expect(said(0.8, { birth_date: '1975-03-03' })[0]).toEqual(['birth_date', 'matches', 'raised', '1975-03-03', '1975-03-03']);
    expect(qualify(0.8, { name: 'x', birth_date: '1975-03-03' }, 'person', listed).effects[0]).toMatchObject({ before: 0.8, after: 0.9 });
  });
  it('a date of birth years apart differs and lowers, one within a year differs and changes nothing', () => {
    expect(said(1, { birth_date: '1990-01-01' })[0]).toEqual(['birth_date', 'differs', 'lowered', '1990-01-01', '1975-03-03']);
    expect(said(1, { birth_date: '1975-09-09' })[0]).toEqual(['birth_date', 'differs', 'none', '1975-09-09', '1975-03-03']);
  });
  it('a date of birth one side lacks is unknown and changes nothing', () => {
    expect(said(0.9, {})[0]).toEqual(['birth_date', 'unknown', 'none', null, '1975-03-03']);
    expect(said(0.9, { birth_date: '1975-03-03' }, { ...listed, birth_dates: [] })[0]).toEqual(['birth_date', 'unknown', 'none', '1975-03-03', null]);
  });
  it('the country: matches (raised, or none at 1), differs (lowered), unknown (none)', () => {
    expect(said(0.9, { country: 'ga' })[1]).toEqual(['country', 'matches', 'raised', 'GA', 'GA']);
    expect(said(1, { country: 'GA' })[1]).toEqual(['country', 'matches', 'none', 'GA', 'GA']);
    expect(said(0.9, { country: 'FR' })[1]).toEqual(['country', 'differs', 'lowered', 'FR', 'GA']);
    expect(said(0.9, { country: 'FR' }, { ...listed, countries: undefined })[1]).toEqual(['country', 'unknown', 'none', 'FR', null]);
  });
  it('the kind is said only when it disagrees', () => {
    expect(said(1, {}, { ...listed, kind: 'organisation' })[0]).toEqual(['kind', 'differs', 'lowered', 'person', 'organisation']);
    expect(said(1, {}).map((q) => q[0])).toEqual(['birth_date', 'country']);
  });
  it('the effect is the score\'s change to 4 decimals', () => {
    expect(effectOf(1, 1)).toBe('none');
    expect(effectOf(0.99999, 1)).toBe('none');
    expect(effectOf(0.9, 0.95)).toBe('raised');
    expect(effectOf(1, 0.8)).toBe('lowered');
  });
});

describe('a qualifier stored before outcomes were said', () => {
  it('an unchanged "lowered" (the exact name and date at 1) reads as a match that changed nothing', () => {
    expect(readQualifier({ qualifier: 'birth_date', effect: 'lowered', query: '1975-03-03', listed: '1975-03-03', before: 1, after: 1 }))
      .toEqual({ qualifier: 'birth_date', outcome: 'matches', effect: 'none', query: '1975-03-03', listed: '1975-03-03', before: 1, after: 1 });
  });
  it('"raised" is a match, a real lowering a difference; today\'s words are kept', () => {
    expect(readQualifier({ qualifier: 'country', effect: 'raised', query: 'GA', listed: 'GA', before: 0.9, after: 0.92 })).toMatchObject({ outcome: 'matches', effect: 'raised' });
    expect(readQualifier({ qualifier: 'birth_date', effect: 'lowered', query: '1990-01-01', listed: '1975', before: 1, after: 0.8 })).toMatchObject({ outcome: 'differs', effect: 'lowered' });
    expect(readQualifier({ qualifier: 'country', outcome: 'unknown', effect: 'none', query: null, listed: 'GA', before: 1, after: 1 })).toMatchObject({ outcome: 'unknown', effect: 'none', query: null });
  });
});
