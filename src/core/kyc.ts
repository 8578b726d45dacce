// Know your sender (docs/rules/know-your-sender.md): identity levels, the limits of each level in
// EUR over one transfer, 30 and 365 rolling days, and what is used and left of them.
import { MINOR_UNITS, parseAmount, pow10, type Currency, type Decimal, type Minor } from './money.js';
import { rateBetween, type RateKey } from './rates.js';

export const KYC_LEVELS = [0, 1, 2, 3] as const;
export type KycLevel = (typeof KYC_LEVELS)[number];
/** The levels that may send, each with its row of limits. */
export const SENDING_LEVELS = [1, 2, 3] as const;
export type SendingLevel = (typeof SENDING_LEVELS)[number];

/** Every limit is set, counted and shown in EUR. */
export const LIMIT_CURRENCY = 'EUR' satisfies Currency;

export const KYC_WINDOWS = ['transfer', '30d', '365d'] as const;
export type KycWindow = (typeof KYC_WINDOWS)[number];

/** A level's limits in EUR minor units; `transfer` null: one transfer may reach the corridor's maximum. */
export interface LevelLimits {
  transfer: Minor | null;
  d30: Minor;
  d365: Minor;
}

/** The limits a fresh install starts with (docs/rules/know-your-sender.md#limits); the admin edits them. */
export const DEFAULT_KYC_LIMITS: Record<SendingLevel, LevelLimits> = {
  1: { transfer: 1_000_00, d30: 1_000_00, d365: 3_000_00 },
  2: { transfer: null, d30: 7_000_00, d365: 42_000_00 },
  3: { transfer: null, d30: 20_000_00, d365: 100_000_00 },
};

/** What a profile must hold for level 1, in the order the profile screen asks for it. */
export const PROFILE_FIELDS = ['full_name', 'date_of_birth', 'phone', 'address', 'city', 'country'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
/** `screened`: the sender's own sanctions screening ran on their current name and date of birth. */
export type ProfileForLevel = Partial<Record<ProfileField, string | null>> & { kyc_level: number; screened: boolean };

/** What level 1 may still wait for: a profile field, or the sender's own screening (it runs by itself). */
export type LevelOneNeed = ProfileField | 'screening';

/** The level-1 fields the profile still lacks (blank counts as missing). */
export function missingProfileFields(profile: Partial<Record<ProfileField, string | null>>): ProfileField[] {
  return PROFILE_FIELDS.filter((field) => !profile[field]?.trim());
}

/**
 * The sender's level: 0 while the profile lacks a level-1 field or the sender's own screening has
 * not run on it, whatever staff approved before; otherwise the level staff approved, at least 1.
 */
export function kycLevelOf(profile: ProfileForLevel): KycLevel {
  if (levelOneNeeds(profile).length > 0) return 0;
  return Math.min(3, Math.max(1, profile.kyc_level)) as KycLevel;
}

/** What a profile lacks for level 1: its missing fields, else the screening when it has not run. */
export function levelOneNeeds(profile: ProfileForLevel): LevelOneNeed[] {
  const missing = missingProfileFields(profile);
  if (missing.length > 0) return missing;
  return profile.screened ? [] : ['screening'];
}

/** What reaching the next level takes: the missing profile fields for level 1, staff's review of documents above. */
export type NextLevelNeeds =
  | { level: 1; provide: LevelOneNeed[] }
  | { level: 2; provide: ['identity_document', 'selfie'] }
  | { level: 3; provide: ['proof_of_address', 'source_of_funds'] }
  | null;

export function nextLevelNeeds(profile: ProfileForLevel): NextLevelNeeds {
  const level = kycLevelOf(profile);
  if (level === 0) return { level: 1, provide: levelOneNeeds(profile) };
  if (level === 1) return { level: 2, provide: ['identity_document', 'selfie'] };
  if (level === 2) return { level: 3, provide: ['proof_of_address', 'source_of_funds'] };
  return null;
}

// ---- amounts in EUR ----

/**
 * `amount` (minor units of `currency`) in EUR minor units at the published rates, exactly, rounded
 * up to the cent: a converted amount never counts less than it is, so no sum slips under a limit
 * by rounding. Null when the rate is missing.
 */
export function toLimitCurrency(amount: bigint, currency: Currency, rates: Partial<Record<RateKey, Decimal>>): bigint | null {
  const rate = rateBetween(currency, LIMIT_CURRENCY, rates);
  if (!rate) return null;
  const numerator = amount * rate.numerator * pow10(MINOR_UNITS[LIMIT_CURRENCY]);
  const denominator = rate.denominator * pow10(MINOR_UNITS[currency]);
  return (numerator + denominator - 1n) / denominator;
}

/** A sender's counted transfers in one currency: the sums over the last 30 and 365 days, as the database writes them. */
export interface CurrencyUsage {
  currency: Currency;
  d30: Decimal;
  d365: Decimal;
}

export interface UsedInEur {
  d30: bigint;
  d365: bigint;
}

/** The sums of every currency, each converted on its own (rounded up), added in EUR minor units. */
export function usedInEur(usage: readonly CurrencyUsage[], rates: Partial<Record<RateKey, Decimal>>): UsedInEur {
  const used: UsedInEur = { d30: 0n, d365: 0n };
  for (const row of usage) {
    for (const window of ['d30', 'd365'] as const) {
      const minor = parseAmount(row[window], row.currency);
      if (minor === null || minor === 0) continue;
      const eur = toLimitCurrency(BigInt(minor), row.currency, rates);
      if (eur === null) throw new Error(`no published rate from ${row.currency} to ${LIMIT_CURRENCY}`);
      used[window] += eur;
    }
  }
  return used;
}

/** One window as the sender sees it, in EUR minor units; `limit` null: the corridor's maximum (nothing counted). */
export interface WindowState {
  window: KycWindow;
  limit: bigint | null;
  used: bigint;
  left: bigint | null;
}

/** Each window's own room, before the transfer window is capped by the others: what a refusal names. */
function ownRoom(limits: LevelLimits, used: UsedInEur): WindowState[] {
  const state = (window: KycWindow, limit: Minor | null, spent: bigint): WindowState => {
    const max = limit === null ? null : BigInt(limit);
    return { window, limit: max, used: spent, left: max === null ? null : (max > spent ? max - spent : 0n) };
  };
  return [state('transfer', limits.transfer, 0n), state('30d', limits.d30, used.d30), state('365d', limits.d365, used.d365)];
}

/**
 * The three windows of a level: a transfer counts nothing before it is made; `left` never below 0.
 * What one transfer may still be is the tightest of them: its own limit, what is left of the 30
 * days and of the 365 days (1,000 a transfer with 850 used in 30 days: 150). Where one transfer
 * may reach the corridor's maximum (`limit` null), its `left` stays null: the rolling windows say
 * what is left of them.
 */
export function windowStates(limits: LevelLimits, used: UsedInEur): WindowState[] {
  const windows = ownRoom(limits, used);
  const [transfer, ...rolling] = windows as [WindowState, ...WindowState[]];
  if (transfer.left === null) return windows;
  const left = rolling.reduce((min, w) => (w.left !== null && w.left < min ? w.left : min), transfer.left);
  return [{ ...transfer, left }, ...rolling];
}

/**
 * The first window whose own limit a new transfer of `amount` (EUR minor units) would exceed
 * (one transfer, then 30, then 365 days), with what is left of it as `windowStates` shows it
 * (one transfer: the tightest window's); null when it fits every window.
 */
export function limitRefusal(limits: LevelLimits, used: UsedInEur, amount: bigint): { window: KycWindow; left: bigint } | null {
  const shown = windowStates(limits, used);
  const index = ownRoom(limits, used).findIndex((w) => w.left !== null && amount > w.left);
  return index < 0 ? null : { window: shown[index]!.window, left: shown[index]!.left! };
}

/** Whether `used` reaches 80 % of `limit`: the screens warn from there. */
export function nearLimit(used: bigint, limit: bigint | null): boolean {
  return limit !== null && limit > 0n && used * 5n >= limit * 4n;
}

// ---- date of birth ----

/** Youngest age that may hold an account. */
export const MIN_AGE = 18;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Why a date of birth is refused, or null: `YYYY-MM-DD` naming a real calendar day from 1900 on
 * (`invalid`), before `today` (`future`), at least 18 years before it (`under_age`: someone born
 * on 29 February comes of age on 1 March in a common year). `today` is the calendar day, `YYYY-MM-DD`.
 */
export function dateOfBirthRefusal(text: string, today: string): 'invalid' | 'future' | 'under_age' | null {
  const match = DATE_PATTERN.exec(text);
  const now = DATE_PATTERN.exec(today);
  if (!match || !now) return 'invalid';
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return 'invalid';
  if (text >= today) return 'future';
  const [ty, tm, td] = [Number(now[1]), Number(now[2]), Number(now[3])];
  const comesOfAge = [y + MIN_AGE, m, d];
  const reached = comesOfAge[0]! < ty || (comesOfAge[0] === ty && (m < tm || (m === tm && d <= td)));
  return reached ? null : 'under_age';
}

// ---- travel rule ----

/** From this amount (1,000 EUR or USD, or its EUR equivalent in another currency) the recipient's name is required for every destination. */
export const NAMED_RECIPIENT_FROM = 1_000_00n;

/** Whether a transfer of `amount` (minor units) needs its recipient's name (docs/rules/know-your-sender.md#travel-rule). */
export function recipientNameRequired(amount: Minor, currency: Currency, rates: Partial<Record<RateKey, Decimal>>): boolean {
  if (currency === 'EUR' || currency === 'USD') return BigInt(amount) >= NAMED_RECIPIENT_FROM;
  const inEur = toLimitCurrency(BigInt(amount), currency, rates);
  return inEur === null || inEur >= NAMED_RECIPIENT_FROM;
}

/**
 * The first of the sender's windows (as GET /api/kyc answers them: limit and what is left, EUR
 * text) that a transfer of `amount` would exceed, as the server's refusal names it (`limitRefusal`):
 * one transfer by its own limit (its `left` is already capped by the other windows), the rolling
 * windows by what is left of them. What the screens say before the server is asked.
 */
export function windowExceeded<W extends { window: KycWindow; limit: Decimal | null; left: Decimal | null }>(
  windows: readonly W[], amount: Minor, currency: Currency, rates: Partial<Record<RateKey, Decimal>>,
): W | null {
  const inEur = toLimitCurrency(BigInt(amount), currency, rates);
  if (inEur === null || amount <= 0) return null;
  const room = (w: W) => (w.window === 'transfer' ? w.limit : w.left);
  return windows.find((w) => room(w) !== null && inEur > BigInt(parseAmount(room(w)!, LIMIT_CURRENCY) ?? 0)) ?? null;
}
