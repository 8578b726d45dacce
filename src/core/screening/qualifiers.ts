// Date of birth, country and kind raise or lower a name's score (docs/rules/screening.md#qualifiers).
import type { EntryKind, ListedEntry, QualifierEffect, ScreeningQuery } from './types.js';

/** Share of the gap to 1 that an agreement closes, and the factor a disagreement applies. */
export const BIRTH_DATE_EXACT_RAISE = 0.5;
export const BIRTH_YEAR_RAISE = 0.3;
export const BIRTH_DATE_DISAGREES = 0.8;
export const COUNTRY_RAISE = 0.2;
export const COUNTRY_DISAGREES = 0.95;
export const KIND_DISAGREES = 0.8;

type DateAgreement = 'exact' | 'year' | 'near' | 'differs';
const RANK: Record<DateAgreement, number> = { exact: 3, year: 2, near: 1, differs: 0 };

function compareDates(query: string, listed: string): DateAgreement {
  if (listed.length >= 10 && query.slice(0, 10) === listed.slice(0, 10)) return 'exact';
  if (listed.length < 10 && query.startsWith(listed)) return 'year';
  // Lists often give circa dates, and a full date in the same year may be a clerk's slip.
  return Math.abs(Number(query.slice(0, 4)) - Number(listed.slice(0, 4))) <= 1 ? 'near' : 'differs';
}

function organisationLike(kind: EntryKind): boolean {
  return kind === 'organisation' || kind === 'vessel';
}

/** Applies each qualifier both sides have, in order: kind, birth date, country. */
export function qualify(nameScore: number, query: ScreeningQuery, queryKind: EntryKind, entry: ListedEntry): { score: number; effects: QualifierEffect[] } {
  let score = nameScore;
  const effects: QualifierEffect[] = [];
  const apply = (qualifier: QualifierEffect['qualifier'], q: string, listed: string, after: number) => {
    effects.push({ qualifier, effect: after > score ? 'raised' : 'lowered', query: q, listed, before: score, after });
    score = after;
  };
  if (queryKind !== 'unknown' && entry.kind !== 'unknown' && organisationLike(queryKind) !== organisationLike(entry.kind)) {
    apply('kind', queryKind, entry.kind, score * KIND_DISAGREES);
  }
  const dates = entry.birth_dates ?? [];
  if (query.birth_date && dates.length > 0) {
    let best: { how: DateAgreement; listed: string } = { how: 'differs', listed: dates[0]! };
    for (const listed of dates) {
      const how = compareDates(query.birth_date, listed);
      if (RANK[how] > RANK[best.how]) best = { how, listed };
    }
    if (best.how === 'exact') apply('birth_date', query.birth_date, best.listed, score + (1 - score) * BIRTH_DATE_EXACT_RAISE);
    else if (best.how === 'year') apply('birth_date', query.birth_date, best.listed, score + (1 - score) * BIRTH_YEAR_RAISE);
    else if (best.how === 'differs') apply('birth_date', query.birth_date, dates.join(', '), score * BIRTH_DATE_DISAGREES);
  }
  const countries = entry.countries ?? [];
  if (query.country && countries.length > 0) {
    const country = query.country.toUpperCase();
    if (countries.some((c) => c.toUpperCase() === country)) apply('country', country, country, score + (1 - score) * COUNTRY_RAISE);
    else apply('country', country, countries.join(', '), score * COUNTRY_DISAGREES);
  }
  return { score, effects };
}

/** The most the qualifiers the query carries can raise a score. */
export function mostRaised(score: number, query: ScreeningQuery): number {
  let gap = 1 - score;
  if (query.birth_date) gap *= 1 - BIRTH_DATE_EXACT_RAISE;
  if (query.country) gap *= 1 - COUNTRY_RAISE;
  return 1 - gap;
}
