// Recall and alert rate on the labelled sets (docs/rules/screening.md#the-labelled-sets), shared by
// the unit test that asserts them and the benchmark that prints them.
import { HOLD_THRESHOLD, screen } from './screen.js';
import type { ScreeningIndex } from './search-index.js';

export interface LabelledVariant {
  query: string;
  list_id: string;
  /** The kind of variant: how the query was made from the listed name. */
  variant: string;
  birth_date?: string;
}

export interface OrdinaryName {
  name: string;
  birth_date: string;
  country: string;
}

export interface Tally {
  found: number;
  total: number;
}

export interface RecallResult {
  /** Variants any plain string comparison finds ({@link isTrivialVariant}), and the others. */
  trivial: Tally;
  hard: Tally;
  byKind: Map<string, { trivial: Tally; hard: Tally }>;
  missed: (LabelledVariant & { trivial: boolean })[];
}

export interface AlertResult {
  /** Alerts per name, screened by name alone (a recipient) and with birth date and country (a sender). */
  nameOnly: number;
  withQualifiers: number;
  alerts: { name: string; listed: string; score: number }[];
}

export const share = (t: Tally): number => (t.total ? t.found / t.total : 1);
export const sum = (a: Tally, b: Tally): Tally => ({ found: a.found + b.found, total: a.total + b.total });

/** Case, accents, apostrophes and punctuation ignored; words in any order. */
function plainWords(name: string): string {
  return name.normalize('NFKD').replace(/[\p{M}\p{Lm}'’]/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).sort().join(' ');
}

/** A variant equal to one of its entry's names (primary or alias) once case, accents and word order are ignored: no matcher is needed to find it. */
export function isTrivialVariant(query: string, names: string[]): boolean {
  const plain = plainWords(query);
  return names.some((n) => plainWords(n) === plain);
}

export function measureRecall(index: ScreeningIndex, variants: LabelledVariant[], threshold = HOLD_THRESHOLD): RecallResult {
  const namesOf = new Map(index.entries.map((e) => [e.list_id, e.names]));
  const result: RecallResult = { trivial: { found: 0, total: 0 }, hard: { found: 0, total: 0 }, byKind: new Map(), missed: [] };
  for (const v of variants) {
    const trivial = isTrivialVariant(v.query, namesOf.get(v.list_id) ?? []);
    const hits = screen(index, { name: v.query, ...(v.birth_date && { birth_date: v.birth_date }) }, { threshold, limit: 20 });
    const found = hits.some((m) => m.entry.list_id === v.list_id);
    if (!result.byKind.has(v.variant)) result.byKind.set(v.variant, { trivial: { found: 0, total: 0 }, hard: { found: 0, total: 0 } });
    for (const tally of [trivial ? result.trivial : result.hard, result.byKind.get(v.variant)![trivial ? 'trivial' : 'hard']]) {
      tally.total++;
      if (found) tally.found++;
    }
    if (!found) result.missed.push({ ...v, trivial });
  }
  return result;
}

export function measureAlerts(index: ScreeningIndex, names: OrdinaryName[], threshold = HOLD_THRESHOLD): AlertResult {
  const alerts: AlertResult['alerts'] = [];
  let withQualifiers = 0;
  for (const o of names) {
    const [hit] = screen(index, { name: o.name, kind: 'person' }, { threshold, limit: 1 });
    if (hit) alerts.push({ name: o.name, listed: hit.explanation.listed_name, score: hit.score });
    if (screen(index, { name: o.name, kind: 'person', birth_date: o.birth_date, country: o.country }, { threshold, limit: 1 }).length) withQualifiers++;
  }
  return { nameOnly: alerts.length / names.length, withQualifiers: withQualifiers / names.length, alerts };
}
