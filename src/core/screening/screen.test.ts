// docs/rules/screening.md: each rule by example. The index holds the labelled list (for realistic
// rarity weights) plus the entries these examples name.
import { describe, expect, it } from 'vitest';
import { buildIndex, screen, type ListedEntry, type ScreeningQuery } from './index.js';
import listed from './testdata/listed.json';
import variants from './testdata/variants.json';

const entry = (list_id: string, names: string[], extra: Partial<ListedEntry> = {}): ListedEntry => ({ source: 'test', list_id, names, kind: 'person', ...extra });
const EXAMPLES: ListedEntry[] = [
  entry('habbash', ['HABBASH, George']),
  entry('emma', ['EMMA LLC'], { kind: 'organisation' }),
  entry('orion', ['ORION CORP'], { kind: 'organisation' }),
  entry('prigozhin', ['PRIGOZHIN, Yevgeniy Viktorovich'], { birth_dates: ['1961-06-01'], countries: ['RU'] }),
  entry('qadhafi', ['AL-QADHAFI, Muammar Muhammad Abu Minyar', 'GADDAFI, Moammar'], { birth_dates: ['1942'], countries: ['LY'] }),
  entry('ri', ['RI, Kwang Il'], { birth_dates: ['1964-01-01'] }),
  entry('kubaisi', ['AL-KUBAISI, Rashid bin Abd al-Aziz']),
  entry('zahrani', ['AL-ZAHRANI, Khalid bin Abdallah Mohammed'], { birth_dates: ['1971-04-02'], countries: ['SA'] }),
];
const index = buildIndex([...(listed as ListedEntry[]), ...EXAMPLES]);

/** The score the entry gets, 0 when it is not answered at all. */
function scoreOf(query: ScreeningQuery | string, listId: string): number {
  const q = typeof query === 'string' ? { name: query } : query;
  return screen(index, q, { threshold: 0, limit: 50 }).find((m) => m.entry.list_id === listId)?.score ?? 0;
}
function matchOf(query: ScreeningQuery | string, listId: string) {
  const q = typeof query === 'string' ? { name: query } : query;
  return screen(index, q, { threshold: 0, limit: 50 }).find((m) => m.entry.list_id === listId)!;
}

describe('the complaints about other matchers', () => {
  it('"George Bush" does not alert against "George Habbash"', () => {
    expect(scoreOf({ name: 'George Bush', kind: 'person' }, 'habbash')).toBeLessThan(0.5);
  });
  it('"Emma Daniels" does not alert against "EMMA LLC": the company word does not count, and a person is not a company', () => {
    expect(scoreOf({ name: 'Emma Daniels', kind: 'person' }, 'emma')).toBeLessThan(0.5);
    const alone = matchOf({ name: 'Emma', kind: 'person' }, 'emma');
    expect(alone.explanation.name_score).toBe(1);
    expect(alone.explanation.qualifiers.filter((q) => q.qualifier === 'kind')).toEqual([expect.objectContaining({ outcome: 'differs', effect: 'lowered', query: 'person', listed: 'organisation' })]);
    expect(alone.score).toBe(0.8);
  });
  it('company words do not match each other', () => {
    expect(scoreOf('Zenith Corp', 'orion')).toBe(0);
  });
  it('scores do not saturate: only the exact name scores 1, and each difference costs', () => {
    const exact = scoreOf('Yevgeniy Viktorovich Prigozhin', 'prigozhin');
    const variant = scoreOf('Evgeny Viktorovich Prigozhin', 'prigozhin');
    const typo = scoreOf('Yevgeniy Viktorovich Prigozhim', 'prigozhin');
    const noMiddle = scoreOf('Yevgeniy Prigozhin', 'prigozhin');
    expect(exact).toBe(1);
    for (const s of [variant, typo, noMiddle]) expect(s).toBeLessThan(1);
    expect(new Set([exact, variant, typo, noMiddle]).size).toBe(4);
  });
});

describe('rules', () => {
  it('matches words in any order, and the lists\' "LAST, First"', () => {
    expect(scoreOf('Prigozhin Yevgeniy Viktorovich', 'prigozhin')).toBe(1);
  });
  it('matches Cyrillic "Евгений Пригожин" to Yevgeniy Prigozhin', () => {
    expect(scoreOf('Евгений Пригожин', 'prigozhin')).toBeGreaterThanOrEqual(0.85);
  });
  it('matches Arabic script "معمر القذافي" to Muammar al-Qadhafi', () => {
    expect(scoreOf('معمر القذافي', 'qadhafi')).toBeGreaterThanOrEqual(0.85);
  });
  it('matches the spellings of a name: Mohammed/Muhammad, Gaddafi/Qadhafi, Yevgeny/Evgeniy', () => {
    expect(scoreOf('Muammar Mohammed Abu Minyar el-Gaddafi', 'qadhafi')).toBeGreaterThanOrEqual(0.85);
    expect(scoreOf('Mouammar Kadhafi', 'qadhafi')).toBeGreaterThanOrEqual(0.85);
    expect(scoreOf('Evgeniy Viktorovich Prigozhin', 'prigozhin')).toBeGreaterThanOrEqual(0.85);
  });
  it('never fuzzes a 2-letter word: "Ro Kwang Il" is not "Ri Kwang Il"', () => {
    const m = screen(index, { name: 'Ro Kwang Il' }, { threshold: 0, limit: 50 }).find((x) => x.entry.list_id === 'ri')!;
    expect(m.explanation.unmatched_query).toContain('ro');
    expect(m.explanation.unmatched_listed).toContain('ri');
    expect(m.score).toBeLessThan(0.85);
  });
  it('tolerates a missing middle name and an initial, not a missing surname', () => {
    expect(scoreOf('Rashid al-Kubaisi', 'kubaisi')).toBeGreaterThanOrEqual(0.85);
    expect(scoreOf('Yevgeniy V. Prigozhin', 'prigozhin')).toBeGreaterThanOrEqual(0.85);
    expect(scoreOf('Yevgeniy Viktorovich', 'prigozhin')).toBeLessThan(0.85);
  });
  it('sets particles and honorifics aside: al-/el-/bin/ibn, Sheikh, Dr', () => {
    expect(scoreOf('Sheikh Rashid ibn Abdulaziz el-Kubaisi', 'kubaisi')).toBe(1);
    expect(scoreOf('Dr. Rashid Abdelaziz Kubaisi', 'kubaisi')).toBe(1);
  });
  it('reads a query word with the article joined as the article and the listed word', () => {
    const m = matchOf('Rashid bin Abd al-Aziz alKubaisi', 'kubaisi');
    expect(m.score).toBe(1);
    expect(m.explanation.ignored).toContain('al');
  });
  it('weighs words by rarity: a rare surname matched alone counts more than a common first name', () => {
    expect(scoreOf('Jean Prigozhin', 'prigozhin')).toBeGreaterThan(scoreOf('Yevgeniy Dupont', 'prigozhin'));
  });
  it('answers the entry once, with the alias that matched best', () => {
    const hits = screen(index, { name: 'Moammar Gaddafi' }, { threshold: 0.5 }).filter((m) => m.entry.list_id === 'qadhafi');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.explanation.listed_name).toBe('GADDAFI, Moammar');
    expect(hits[0]!.score).toBe(1);
  });
});

describe('qualifiers', () => {
  const name = 'Yevgeniy Prigozhin';
  const plain = scoreOf(name, 'prigozhin');
  it('a birth date that agrees closes half the gap to 1; a year-only date closes 30 %', () => {
    const gapClosed = (m: ReturnType<typeof matchOf>) => {
      const [q] = m.explanation.qualifiers;
      return Math.round(((q!.after - q!.before) / (1 - q!.before)) * 100) / 100;
    };
    const exact = matchOf({ name, birth_date: '1961-06-01' }, 'prigozhin');
    expect(exact.score).toBeGreaterThan(plain);
    expect(gapClosed(exact)).toBe(0.5);
    const year = matchOf({ name: 'Muammar al-Qadhafi', birth_date: '1942-09-01' }, 'qadhafi');
    expect(year.explanation.qualifiers[0]).toMatchObject({ qualifier: 'birth_date', effect: 'raised', listed: '1942' });
    expect(gapClosed(year)).toBe(0.3);
  });
  it('a birth date that disagrees lowers the score below the hold threshold, a year apart does not', () => {
    const m = matchOf({ name: 'Yevgeniy Viktorovich Prigozhin', birth_date: '1990-03-12' }, 'prigozhin');
    expect(m.explanation.name_score).toBe(1);
    expect(m.score).toBe(0.8);
    expect(m.explanation.qualifiers).toEqual([
      { qualifier: 'birth_date', outcome: 'differs', effect: 'lowered', query: '1990-03-12', listed: '1961-06-01', before: 1, after: 0.8 },
      { qualifier: 'country', outcome: 'unknown', effect: 'none', query: null, listed: 'RU', before: 0.8, after: 0.8 },
    ]);
    expect(scoreOf({ name: 'Yevgeniy Viktorovich Prigozhin', birth_date: '1962-02-02' }, 'prigozhin')).toBe(1);
  });
  it('a country that agrees raises the score a little, one that disagrees lowers it a little', () => {
    expect(scoreOf({ name, country: 'RU' }, 'prigozhin')).toBeGreaterThan(plain);
    expect(scoreOf({ name, country: 'FR' }, 'prigozhin')).toBeLessThan(plain);
    expect(scoreOf({ name, country: 'FR' }, 'prigozhin')).toBeGreaterThan(scoreOf({ name, birth_date: '1990-01-01' }, 'prigozhin'));
  });
});

describe('explanation', () => {
  it('says which query word met which listed word, how, and what was set aside', () => {
    const m = matchOf({ name: 'Sheikh Khalid Muhammad al-Zahrany', birth_date: '1971-04-02', country: 'SA' }, 'zahrani');
    expect(m.explanation).toMatchObject({
      listed_name: 'AL-ZAHRANI, Khalid bin Abdallah Mohammed',
      unmatched_query: [],
      unmatched_listed: ['abd', 'la'],
      ignored: ['sheikh', 'al', 'bin', 'al'],
    });
    const how = Object.fromEntries(m.explanation.matched.map((t) => [t.query, [t.listed, t.how, t.distance]]));
    expect(how).toEqual({ khalid: ['khalid', 'exact', undefined], muhammad: ['mohammed', 'variant', 2], zahrany: ['zahrani', 'fuzzy', 1] });
    expect(m.explanation.qualifiers.map((q) => [q.qualifier, q.outcome, q.effect, q.listed])).toEqual([
      ['birth_date', 'matches', 'raised', '1971-04-02'],
      ['country', 'matches', 'raised', 'SA'],
    ]);
    expect(m.explanation.name_score).toBeLessThan(1);
    expect(m.score).toBeGreaterThan(m.explanation.name_score);
    expect(m.score).toBeLessThan(1);
  });
});

describe('what each qualifier says', () => {
  it('an exact name with the same date of birth and country: both match, and change nothing (the name already scored 1)', () => {
    const m = matchOf({ name: 'Yevgeniy Viktorovich Prigozhin', birth_date: '1961-06-01', country: 'RU', kind: 'person' }, 'prigozhin');
    expect(m.score).toBe(1);
    expect(m.explanation.qualifiers).toEqual([
      { qualifier: 'birth_date', outcome: 'matches', effect: 'none', query: '1961-06-01', listed: '1961-06-01', before: 1, after: 1 },
      { qualifier: 'country', outcome: 'matches', effect: 'none', query: 'RU', listed: 'RU', before: 1, after: 1 },
    ]);
  });
  it('a date within a year differs and changes nothing; a date of birth only one side has is unknown', () => {
    const near = matchOf({ name: 'Yevgeniy Viktorovich Prigozhin', birth_date: '1962-02-02' }, 'prigozhin');
    expect(near.explanation.qualifiers[0]).toMatchObject({ qualifier: 'birth_date', outcome: 'differs', effect: 'none', listed: '1961-06-01' });
    const listedOnly = matchOf({ name: 'Yevgeniy Viktorovich Prigozhin' }, 'prigozhin');
    expect(listedOnly.explanation.qualifiers[0]).toEqual({ qualifier: 'birth_date', outcome: 'unknown', effect: 'none', query: null, listed: '1961-06-01', before: 1, after: 1 });
    const queryOnly = matchOf({ name: 'Rashid al-Kubaisi', birth_date: '1970-01-01', country: 'IQ' }, 'kubaisi');
    expect(queryOnly.explanation.qualifiers.map((q) => [q.qualifier, q.outcome, q.effect, q.query, q.listed])).toEqual([
      ['birth_date', 'unknown', 'none', '1970-01-01', null],
      ['country', 'unknown', 'none', 'IQ', null],
    ]);
  });
});

describe('the index\'s pre-filter', () => {
  it('answers at the threshold exactly what a search from 0 answers above it', () => {
    for (const v of (variants as { query: string }[]).slice(0, 150)) {
      const all = screen(index, { name: v.query }, { threshold: 0, limit: 10_000 }).filter((m) => m.score >= 0.85);
      const held = screen(index, { name: v.query }, { threshold: 0.85, limit: 10_000 });
      expect(held.map((m) => [m.entry.list_id, m.score]), v.query).toEqual(all.map((m) => [m.entry.list_id, m.score]));
    }
  });
});

describe('options', () => {
  it('answers nothing under the threshold and at most the limit', () => {
    expect(screen(index, { name: 'Marie Dupont' })).toEqual([]);
    expect(screen(index, { name: 'Mohammed' }, { threshold: 0, limit: 3 })).toHaveLength(3);
  });
});
