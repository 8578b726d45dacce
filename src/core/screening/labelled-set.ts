// Recall and alert rate on the labelled set (docs/rules/screening.md#the-labelled-set), shared by
// the unit test that asserts them and the benchmark that prints them.
import { HOLD_THRESHOLD, screen } from './screen.js';
import type { ScreeningIndex } from './search-index.js';

export interface LabelledVariant {
  query: string;
  list_id: string;
  variant: string;
  birth_date?: string;
}

export interface OrdinaryName {
  name: string;
  birth_date: string;
  country: string;
}

export interface LabelledResult {
  recall: number;
  missed: LabelledVariant[];
  /** Alerts per ordinary name, screened by name alone (a recipient) and with birth date and country (a sender). */
  alertRateNameOnly: number;
  alertRateWithQualifiers: number;
  alerts: { name: string; listed: string; score: number }[];
}

export function evaluateLabelledSet(index: ScreeningIndex, variants: LabelledVariant[], ordinary: OrdinaryName[], threshold = HOLD_THRESHOLD): LabelledResult {
  const missed = variants.filter((v) => {
    const hits = screen(index, { name: v.query, ...(v.birth_date && { birth_date: v.birth_date }) }, { threshold, limit: 20 });
    return !hits.some((m) => m.entry.list_id === v.list_id);
  });
  const alerts: LabelledResult['alerts'] = [];
  let withQualifiers = 0;
  for (const o of ordinary) {
    const [hit] = screen(index, { name: o.name, kind: 'person' }, { threshold, limit: 1 });
    if (hit) alerts.push({ name: o.name, listed: hit.explanation.listed_name, score: hit.score });
    if (screen(index, { name: o.name, kind: 'person', birth_date: o.birth_date, country: o.country }, { threshold, limit: 1 }).length) withQualifiers++;
  }
  return {
    recall: 1 - missed.length / variants.length,
    missed,
    alertRateNameOnly: alerts.length / ordinary.length,
    alertRateWithQualifiers: withQualifiers / ordinary.length,
    alerts,
  };
}
