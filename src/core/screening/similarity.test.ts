// docs/rules/screening.md#fuzz-budget, #variants
import { describe, expect, it } from 'vitest';
import { abjadKey, latinKey } from './phonetic.js';
import { compareWords, editDistance, fuzzBudget, toWord } from './similarity.js';

const compare = (a: string, b: string, abjad = false) => compareWords(toWord(a), toWord(b), abjad);

describe('fuzz budget', () => {
  it('allows no edit on 1-2 letters, then 1, 2 and 3 edits as words grow', () => {
    expect([1, 2, 3, 8, 9, 12, 13, 20].map(fuzzBudget)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
  it('never fuzzes a 2-letter word', () => {
    expect(compare('li', 'lu')).toBeNull();
    expect(compare('ri', 'ro')).toBeNull();
  });
  it('counts an adjacent swap as one edit', () => {
    expect(editDistance('hassan', 'hsasan', 3)).toBe(1);
  });
  it('costs each edit a share of the word: one typo in a long word costs less than in a short one', () => {
    const long = compare('shcherbakov', 'shcherbakof')!;
    const short = compare('boris', 'doris')!;
    expect(long.how).toBe('fuzzy');
    expect(long.distance).toBe(1);
    expect(long.similarity).toBeGreaterThan(short.similarity);
  });
  it('refuses more edits than the budget', () => {
    expect(compare('bush', 'habbash')).toBeNull();
    expect(compare('daniels', 'dumas')).toBeNull();
  });
});

describe('variants', () => {
  it('gives the spellings of one name one key', () => {
    expect(new Set(['mohammed', 'muhammad', 'mohamed', 'mohamad'].map(latinKey)).size).toBe(1);
    expect(new Set(['yevgeny', 'evgeniy', 'evgeny', 'yevgeniy'].map(latinKey)).size).toBe(1);
    expect(latinKey('prigojin')).toBe(latinKey('prigozhin'));
  });
  it('compares Arabic script by consonants', () => {
    expect(abjadKey('mhmd')).toBe(abjadKey('muhammad'));
    expect(compare('mr', 'umar', true)).toMatchObject({ how: 'variant' });
  });
  it('calls a same-key pair a variant, paying a little for each edit, and a one-letter slip fuzzy', () => {
    expect(compare('muhammad', 'mohammed')).toEqual({ how: 'variant', distance: 2, similarity: 0.95 - (0.5 * 2) / 8 });
    expect(compare('qadhafi', 'gaddafi')).toMatchObject({ how: 'variant', distance: 1 });
    expect(compare('zhukovskiy', 'joukovski')).toMatchObject({ how: 'variant', distance: 1 });
    expect(compare('prigozhim', 'prigozhin')).toEqual({ how: 'fuzzy', distance: 1, similarity: 1 - 0.6 / 9 });
  });
  it('keeps vowel-rich short names apart: a variant with many edits scores low', () => {
    expect(compare('lyimo', 'limi')!.similarity).toBeLessThan(0.8);
  });
  it('matches an initial to a word it starts', () => {
    expect(compare('v', 'viktorovich')).toMatchObject({ how: 'initial' });
    expect(compare('w', 'viktorovich')).toBeNull();
  });
});
