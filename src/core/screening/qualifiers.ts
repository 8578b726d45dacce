// Date of birth, country and kind raise or lower a name's score (docs/rules/screening.md#qualifiers),
// and each says so in the explanation (docs/rules/screening.md#explanation).
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

/** Scores are compared as the explanation gives them (4 decimals): an effect is a change one can read. */
const same = (a: number, b: number) => Math.round(a * 10_000) === Math.round(b * 10_000);

/** What a qualifier did to the score, from the score itself: raised, lowered or none. */
export function effectOf(before: number, after: number): QualifierEffect['effect'] {
  if (same(before, after)) return 'none';
  return after > before ? 'raised' : 'lowered';
}

/**
 * Applies each qualifier, in order: kind (said only when the two kinds disagree), birth date,
 * country (each always said: matches, differs, or unknown when a side has none). Each says what
 * the comparison found and what it did to the score, read from the score before and after.
 */
export function qualify(nameScore: number, query: ScreeningQuery, queryKind: EntryKind, entry: ListedEntry): { score: number; effects: QualifierEffect[] } {
  let score = nameScore;
  const effects: QualifierEffect[] = [];
  const say = (qualifier: QualifierEffect['qualifier'], outcome: QualifierEffect['outcome'], q: string | null, listed: string | null, after: number) => {
    effects.push({ qualifier, outcome, effect: effectOf(score, after), query: q, listed, before: score, after });
    score = after;
  };
  if (queryKind !== 'unknown' && entry.kind !== 'unknown' && organisationLike(queryKind) !== organisationLike(entry.kind)) {
    say('kind', 'differs', queryKind, entry.kind, score * KIND_DISAGREES);
  }
  const dates = entry.birth_dates ?? [];
  if (query.birth_date && dates.length > 0) {
    let best: { how: DateAgreement; listed: string } = { how: 'differs', listed: dates[0]! };
    for (const listed of dates) {
      const how = compareDates(query.birth_date, listed);
      if (RANK[how] > RANK[best.how]) best = { how, listed };
    }
    if (best.how === 'exact') say('birth_date', 'matches', query.birth_date, best.listed, score + (1 - score) * BIRTH_DATE_EXACT_RAISE);
    else if (best.how === 'year') say('birth_date', 'matches', query.birth_date, best.listed, score + (1 - score) * BIRTH_YEAR_RAISE);
    // Within a year: it differs, but lists often give circa dates, so the score stays.
    else if (best.how === 'near') say('birth_date', 'differs', query.birth_date, best.listed, score);
    else say('birth_date', 'differs', query.birth_date, dates.join(', '), score * BIRTH_DATE_DISAGREES);
  } else {
    say('birth_date', 'unknown', query.birth_date ?? null, dates.length ? dates.join(', ') : null, score);
  }
  const countries = entry.countries ?? [];
  if (query.country && countries.length > 0) {
    const country = query.country.toUpperCase();
    if (countries.some((c) => c.toUpperCase() === country)) say('country', 'matches', country, country, score + (1 - score) * COUNTRY_RAISE);
    else say('country', 'differs', country, countries.join(', '), score * COUNTRY_DISAGREES);
  } else {
    say('country', 'unknown', query.country ? query.country.toUpperCase() : null, countries.length ? countries.join(', ') : null, score);
  }
  return { score, effects };
}

/**
 * A qualifier as an alert stored it, in today's words: alerts raised before qualifiers said their
 * outcome carry only `raised`/`lowered`, and called "lowered" a match that changed nothing (a
 * name already at 1). A disagreement always lowered the score, so an unchanged one was a match.
 */
export function readQualifier(stored: Omit<QualifierEffect, 'outcome' | 'effect'> & { outcome?: QualifierEffect['outcome']; effect?: string }): QualifierEffect {
  const effect = effectOf(stored.before, stored.after);
  const outcome = stored.outcome ?? (stored.effect === 'raised' || effect === 'none' ? 'matches' : 'differs');
  return { qualifier: stored.qualifier, outcome, effect, query: stored.query ?? null, listed: stored.listed ?? null, before: stored.before, after: stored.after };
}

/** The most the qualifiers the query carries can raise a score. */
export function mostRaised(score: number, query: ScreeningQuery): number {
  let gap = 1 - score;
  if (query.birth_date) gap *= 1 - BIRTH_DATE_EXACT_RAISE;
  if (query.country) gap *= 1 - COUNTRY_RAISE;
  return 1 - gap;
}
