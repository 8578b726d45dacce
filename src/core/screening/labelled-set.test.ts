// docs/rules/screening.md#the-labelled-set: at the hold threshold, recall ≥ 98 % on the labelled
// variants and at most 1 alert per 1,000 ordinary names (a quality assertion, not a timing).
import { describe, expect, it } from 'vitest';
import { buildIndex, type ListedEntry } from './index.js';
import { evaluateLabelledSet } from './labelled-set.js';
import listed from './testdata/listed.json';
import ordinary from './testdata/ordinary.json';
import variants from './testdata/variants.json';

describe('the labelled set', () => {
  const result = evaluateLabelledSet(buildIndex(listed as ListedEntry[]), variants, ordinary);

  it('is as large as the rules say, and covers every kind of variant', () => {
    expect(variants.length).toBeGreaterThanOrEqual(300);
    expect(ordinary.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(variants.map((v) => v.variant))).toEqual(
      new Set(['transliteration', 'word order', 'one-letter typo', 'missing middle name', 'initial', 'cyrillic', 'arabic script', 'particles', 'honorific', 'accents and case', 'company form']),
    );
  });
  it('finds at least 98 % of the variants', () => {
    expect(result.recall).toBeGreaterThanOrEqual(0.98);
  });
  it('alerts on at most 1 ordinary name in 1,000, by name alone or with birth date and country', () => {
    expect(result.alertRateNameOnly).toBeLessThanOrEqual(0.001);
    expect(result.alertRateWithQualifiers).toBeLessThanOrEqual(0.001);
  });
});
