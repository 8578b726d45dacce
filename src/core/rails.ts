import { compareWords, toWord } from './screening/similarity.js';
import { prepareName } from './screening/tokens.js';

// Payout rails (docs/rules/payout-rails.md): how a transfer's money reaches the recipient through
// an operator's API, one attempt at a time, never twice.

/**
 * The rails a business can connect: mobile-money operators' APIs, SEPA credit-transfer files
 * to its bank (docs/rules/bank-rail.md), and PayPal Payouts to a recipient's PayPal e-mail
 * (docs/rules/payout-rails.md#paypal-payouts); every other payout (and these, switched off) is sent by hand.
 */
export const RAIL_IDS = ['airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'paypal_payouts', 'sepa_france'] as const;
export type RailId = (typeof RAIL_IDS)[number];
/** The rails paid through a mobile-money operator's API, one call per attempt. */
export type MobileRailId = Exclude<RailId, 'sepa_france' | 'paypal_payouts'>;

/** Each operator rail's country (Airtel's `X-Country`) and the currency its wallet holds. */
export const RAIL_COUNTRY: Record<MobileRailId, 'GA' | 'RW'> = { airtel_gabon: 'GA', airtel_rwanda: 'RW', mtn_rwanda: 'RW' };
export const RAIL_CURRENCY: Record<MobileRailId, 'XAF' | 'RWF'> = { airtel_gabon: 'XAF', airtel_rwanda: 'RWF', mtn_rwanda: 'RWF' };
export const MOBILE_RAIL_IDS = ['airtel_gabon', 'airtel_rwanda', 'mtn_rwanda'] as const satisfies readonly MobileRailId[];
export const isMobileRail = (rail: RailId): rail is MobileRailId => (MOBILE_RAIL_IDS as readonly RailId[]).includes(rail);

/**
 * An attempt's states: submitting → pending → succeeded | failed; unknown when the answer was
 * lost, late, a 5xx or ambiguous; succeeded → reversed when the operator sends it back.
 */
export const ATTEMPT_STATES = ['submitting', 'pending', 'succeeded', 'failed', 'unknown', 'reversed'] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

export const NAME_CHECK_OUTCOMES = ['match', 'close', 'mismatch', 'unknown_number', 'barred', 'inactive', 'unavailable'] as const;
export type NameCheckOutcome = (typeof NAME_CHECK_OUTCOMES)[number];

/** Outcomes that pay without a person: a close name pays too, and staff see both names. */
export function nameCheckPays(outcome: NameCheckOutcome): boolean {
  return outcome === 'match' || outcome === 'close';
}

/** From this score the names are the same person's as written (order, case and accents aside). */
const MATCH_SCORE = 0.95;
/** From this score the names are close: a typo, a missing or extra middle name. */
const CLOSE_SCORE = 0.75;
/** A word only one side has costs half a word: registers often hold a middle name the sender left out. */
const EXTRA_WORD_COST = 0.5;

/**
 * Compares the recipient's name as the sender wrote it with the name the operator registered
 * for the number, with the screening's normalisation (case, accents, word order, honorifics).
 * Words are paired best first, each once; score = Σ similarity ÷ (words of the shorter name +
 * half of each word only the longer has). One word alone never matches: it is at most close.
 */
export function compareNames(recipient: string, registered: string): { outcome: 'match' | 'close' | 'mismatch'; score: number } {
  const a = prepareName(recipient);
  const b = prepareName(registered);
  const [shorter, longer] = a.tokens.length <= b.tokens.length ? [a.tokens, b.tokens] : [b.tokens, a.tokens];
  if (shorter.length === 0) return { outcome: 'mismatch', score: 0 };
  const abjad = a.abjad || b.abjad;
  const pairs: { i: number; j: number; similarity: number }[] = [];
  const shortWords = shorter.map(toWord);
  const longWords = longer.map(toWord);
  shortWords.forEach((w, i) => longWords.forEach((v, j) => {
    const met = compareWords(w, v, abjad);
    if (met) pairs.push({ i, j, similarity: met.similarity });
  }));
  pairs.sort((x, y) => y.similarity - x.similarity);
  const usedShort = new Set<number>();
  const usedLong = new Set<number>();
  let sum = 0;
  for (const p of pairs) {
    if (usedShort.has(p.i) || usedLong.has(p.j)) continue;
    usedShort.add(p.i);
    usedLong.add(p.j);
    sum += p.similarity;
  }
  const score = Math.round((sum / (shorter.length + EXTRA_WORD_COST * (longer.length - shorter.length))) * 1000) / 1000;
  if (score >= MATCH_SCORE && shorter.length >= 2) return { outcome: 'match', score };
  if (score >= CLOSE_SCORE) return { outcome: 'close', score };
  return { outcome: 'mismatch', score };
}

/** Enquiries after which an attempt still open is asked about hourly: about 3 hours of asking every 10 minutes. */
const ENQUIRIES_BEFORE_HOURLY = 24;

/**
 * The enquiry's waits after a payout was sent: quick at first, then every 10 minutes, then every
 * hour (a PayPal item unclaimed may stay open for 30 days).
 */
export function enquiryDelayMs(enquiries: number): number {
  if (enquiries >= ENQUIRIES_BEFORE_HOURLY) return 3_600_000;
  const steps = [5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000];
  return steps[Math.min(enquiries, steps.length - 1)]!;
}
