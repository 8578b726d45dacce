import { isCurrency } from '@core/money';
import { storedRegionLabel } from '@core/region-names';
import { formatDecimalText, moneyFromDecimal } from '@web/lib/format';

export function amountText(value: string, currency: string, lng: string): string {
  return isCurrency(currency) ? moneyFromDecimal(value, currency, lng) : `${value} ${currency}`;
}

/**
 * An address on one line, its region named as the sender's screens name it in the staff member's
 * language (a profile keeps the address data's own name, often English: "Estuaire Province" is
 * « Estuaire » in French). The country stays its code.
 */
export function addressText(a: { line?: string | null; city?: string | null; state?: string | null; country?: string | null }, lng: string): string {
  const state = a.state ? storedRegionLabel(a.country, a.state, lng.startsWith('fr') ? 'fr' : 'en') : null;
  return [a.line, a.city, state, a.country].filter(Boolean).join(', ');
}

/** A screening score (0 to 1) with two decimals in the staff member's language: "0.92", « 0,92 ». */
export function scoreText(score: number, lng: string): string {
  return new Intl.NumberFormat(lng.startsWith('fr') ? 'fr-FR' : 'en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(score);
}

/**
 * A monitoring alert's measured value or threshold, stored as text ("12.5", "1000.00"): a plain
 * decimal is written in the staff member's language (« 12,5 », « 1 000,00 »), exactly as stored;
 * anything else as it is.
 */
export function evidenceText(value: string, lng: string): string {
  return /^-?\d+(\.\d+)?$/.test(value) ? formatDecimalText(value, lng) : value;
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
    // A field recorded only after (a decision, a reason) is a fact of the change, not a move from "—".
    .map((k) => (k in before ? `${field(k)}${colon}${value(k, before[k])} → ${value(k, after[k])}` : `${field(k)}${colon}${value(k, after[k])}`));
}
