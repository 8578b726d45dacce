import { isCurrency } from '@core/money';
import { moneyFromDecimal } from '@web/lib/format';

export function amountText(value: string, currency: string, lng: string): string {
  return isCurrency(currency) ? moneyFromDecimal(value, currency, lng) : `${value} ${currency}`;
}

/** A requester by full name, else e-mail, else profile id. */
export function requesterName(r: { full_name: string | null; email: string | null; profile_id: string }): string {
  return r.full_name?.trim() || r.email?.trim() || r.profile_id;
}

/** Bookkeeping fields an audit row's values carry that say nothing about the change. */
const UNTOLD = new Set(['id', 'created_at', 'updated_at', 'version', 'note_id']);
const LONGEST_VALUE = 80;

function valueText(v: unknown): string {
  if (v === undefined || v === null) return '—';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE - 1)}…` : text;
}

/** How a reader names fields and values: "role" → "Role", "manager" → "Manager" (else as stored). */
export interface ChangeWords {
  field?: (key: string) => string;
  /** A value's word, or null to show it as stored. */
  value?: (key: string, value: unknown) => string | null;
  /** Between a field and its values: ": ", or French's "\u00A0: ". */
  colon?: string;
}

/**
 * What an audit row changed, field by field: "percentage: 0.045 → 0.044" for each field whose
 * value differs; a creation (nothing before) or a deletion (nothing after) lists its values.
 * With `words`, fields and known values read as words ("Role: User → Manager").
 */
export function changeSummary(before: Record<string, unknown> | null, after: Record<string, unknown> | null, words: ChangeWords = {}): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((k) => !UNTOLD.has(k));
  const field = (k: string) => words.field?.(k) ?? k;
  const colon = words.colon ?? ': ';
  const value = (k: string, v: unknown) => (v === undefined || v === null ? null : words.value?.(k, v)) ?? valueText(v);
  if (!before || !after) {
    const values = (before ?? after ?? {});
    return keys.map((k) => `${field(k)}${colon}${value(k, values[k])}`);
  }
  return keys
    // A missing field and a null one both show "—": no change between them.
    .filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null))
    .map((k) => `${field(k)}${colon}${value(k, before[k])} → ${value(k, after[k])}`);
}
