import type { KycLimits, KycLimitsUpdate, KycStatus } from '@core/api/kyc.js';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, Message } from '@core/errors.js';
import {
  LIMIT_CURRENCY, SENDING_LEVELS, kycLevelOf, levelOneNeeds, limitRefusal, missingProfileFields, nextLevelNeeds, toLimitCurrency, usedInEur,
  windowStates, type CurrencyUsage, type KycLevel, type LevelLimits, type ProfileForLevel, type SendingLevel,
} from '@core/kyc.js';
import { formatMoney, parseAmount, toDecimal, type Currency, type Minor } from '@core/money.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { t } from '@server/i18n.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { publishedRates } from '../fees/service.js';
import { senderUsage, type LevelLimitsRow } from '@server/db/shared-sql/sender-usage.js';
import type { AuthUser } from '../auth/service.js';
import { countryCode, screenPerson, senderKey } from '../screening/service.js';
import { levelRow, listLimits, lockLimits, markScreened, writeLimits, type LevelRow, type LimitsRow } from './repo.js';

// Know your sender (docs/rules/know-your-sender.md): the sender's level and limits, checked
// before a quote is shown to them and, under the sender's lock, when a transfer is made
// (transfers/initiate-transfer.ts); the admin's limits per level.

const eur = (minor: bigint | null) => (minor === null ? null : toDecimal(Number(minor), LIMIT_CURRENCY));

function limitsOf(row: LevelLimitsRow): LevelLimits {
  const minor = (value: string) => parseAmount(value, LIMIT_CURRENCY)!;
  return { transfer: row.transfer === null ? null : minor(row.transfer), d30: minor(row.d30), d365: minor(row.d365) };
}

function limitsToJson(row: LimitsRow): KycLimits {
  const limits = limitsOf(row);
  const text = (minor: Minor) => toDecimal(minor, LIMIT_CURRENCY);
  return {
    level: row.level as SendingLevel, transfer: limits.transfer === null ? null : text(limits.transfer), d30: text(limits.d30),
    d365: text(limits.d365), currency: LIMIT_CURRENCY, updated_at: row.updated_at.toISOString(),
  };
}

export type { LevelRow };

type SenderProfile = LevelRow & ProfileForLevel;

/** What the sender's own screening ran on: a digest of the screening's key (their id, name, date of birth). */
const screeningDigest = (profileId: string, profile: Pick<LevelRow, 'full_name' | 'date_of_birth'>) =>
  createHash('sha256').update(senderKey(profileId, profile.full_name ?? '', profile.date_of_birth ?? null)).digest('base64url');

/** What a sender's level is computed from: the level-1 fields, what their own screening ran on, the level staff approved. */
export type LevelFields = Pick<LevelRow, 'full_name' | 'date_of_birth' | 'phone' | 'address' | 'city' | 'country' | 'kyc_level' | 'screened_for'>;

/**
 * Level 1 is a complete profile the sender's own screening ran on (docs/rules/know-your-sender.md#levels).
 * A complete profile it has not run on yet (its screening on the profile change failed, or came
 * before its name or date of birth changed) is screened here, as the level is read; when that
 * fails too the sender stays at level 0, and the next read tries again. A hit holds the sender's
 * transfers as the profile path does; the level is not what stops them.
 */
async function screenedNow(ctx: { db: Db; log: Logger }, profileId: string, profile: LevelFields): Promise<boolean> {
  if (missingProfileFields(profile).length > 0) return false;
  const digest = screeningDigest(profileId, profile);
  if (profile.screened_for === digest) return true;
  try {
    await screenPerson(ctx.db, ctx.db, {
      subject: 'sender', key: senderKey(profileId, profile.full_name!, profile.date_of_birth ?? null), name: profile.full_name!,
      birth_date: profile.date_of_birth ?? undefined, country: countryCode(profile.country), profileId,
    }, 'profile');
    await markScreened(ctx.db, profileId, digest);
    return true;
  } catch (err) {
    // The error's text could quote the name screened: only its kind is logged.
    ctx.log.error({ profile_id: profileId, error: err instanceof Error ? err.name : typeof err }, 'sender screening failed: level 0 until it runs');
    return false;
  }
}

/** The sender's level-1 fields, screening and approved level. */
async function senderProfile(ctx: { db: Db; log: Logger }, profileId: string): Promise<SenderProfile> {
  const row = await levelRow(ctx.db, profileId);
  if (!row) throw new AppError('not_found');
  return { ...row, screened: await screenedNow(ctx, profileId, row) };
}

/**
 * The sender's level as it stands (docs/rules/know-your-sender.md#levels), read as GET /api/kyc
 * reads it: a complete profile their own screening ran on is at least 1, whatever staff approved
 * (`kyc_level` holds only that). The one level staff read too (a review, the suspicious-transaction
 * report); `profile`: the sender's row when the caller has read it already. Like every level read,
 * it screens a complete profile the screening has not run on yet.
 */
export async function senderLevel(ctx: { db: Db; log: Logger }, profileId: string, profile?: LevelFields): Promise<KycLevel> {
  const row = profile ?? await levelRow(ctx.db, profileId);
  if (!row) throw new AppError('not_found');
  return kycLevelOf({ ...row, screened: await screenedNow(ctx, profileId, row) });
}

/** Every level's limits as read with a sender's totals, by level. */
const limitsByLevel = (limits: readonly LevelLimitsRow[]) => new Map(limits.map((r) => [r.level, limitsOf(r)]));

/** 403 kyc_required naming what the profile lacks (or the screening not run yet), as the sender's language writes it. */
function kycRequired(profile: SenderProfile): AppError {
  const provide = levelOneNeeds(profile);
  return new AppError('kyc_required', {
    vars: { missing: (lang) => provide.map((field) => t(lang, `errors.kyc.field.${field}`)).join(', ') },
    extra: { level: 0, provide },
  });
}

/** 409 limit_exceeded: the window, what is left of it and its currency. */
function limitExceeded(window: string, left: bigint): AppError {
  return new AppError('limit_exceeded', {
    vars: {
      window: new Message(`errors.kyc.window.${window}`),
      left: (lang) => formatMoney(Number(left), LIMIT_CURRENCY, lang === 'fr' ? 'fr-FR' : 'en-US'),
    },
    extra: { window, left: eur(left), currency: LIMIT_CURRENCY },
  });
}

/** A level that may send has its row; one without (never after the migration) sends nothing. */
function levelLimits(limits: Map<number, LevelLimits>, level: number): LevelLimits {
  const own = limits.get(level);
  if (!own) throw new Error(`no limits for level ${level}`);
  return own;
}

/** A sender about to send: their profile as it is now, and the check of the amount against their limits. */
export interface SenderLimits {
  sender: SenderProfile;
  /** Given what the sender's transfers add up to and every level's limits, the refusal (409 limit_exceeded) or null. */
  check: (usage: CurrencyUsage[], limits: LevelLimitsRow[]) => AppError | null;
}

/**
 * The sender of a transfer of `amount` (`currency`'s minor units), their profile's level fields as
 * this request's session lookup read them, and its check against their limits: 403 kyc_required
 * at once for a level-0 sender; else the check, to run where what they have sent and the limits
 * are read (under the sender's lock for an initiation).
 */
export async function senderLimits(ctx: Pick<AppContext, 'db' | 'prices' | 'log'>, user: SignedInSender, amount: Minor, currency: Currency): Promise<SenderLimits> {
  const [screened, rates] = await Promise.all([screenedNow(ctx, user.profile_id, user.sender), publishedRates(ctx)]);
  const profile = { ...user.sender, screened };
  const level = kycLevelOf(profile);
  if (level === 0) throw kycRequired(profile);
  const inEur = toLimitCurrency(BigInt(amount), currency, rates);
  if (inEur === null) throw new Error(`no published rate from ${currency} to ${LIMIT_CURRENCY}`);
  return {
    sender: profile,
    check: (usage, limits) => {
      const own = levelLimits(limitsByLevel(limits), level);
      const refusal = limitRefusal(own, usedInEur(usage, rates), inEur);
      return refusal && limitExceeded(refusal.window, refusal.left);
    },
  };
}

/** A signed-in sender as a request knows them: their profile id and level fields (auth/tokens.ts). */
export type SignedInSender = Pick<AuthUser, 'profile_id' | 'sender'>;

/**
 * A signed-in sender's quote over their limits is refused as their transfer would be (nothing
 * locked: a quote commits nothing). A level-0 account still gets prices (docs/rules/know-your-sender.md#limits): only its transfer is refused.
 */
export async function checkQuote(ctx: AppContext, user: SignedInSender, amount: Minor, currency: Currency): Promise<void> {
  if (amount === 0) return;
  const [limits, counted] = await Promise.all([
    senderLimits(ctx, user, amount, currency).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'kyc_required') return null;
      throw err;
    }),
    senderUsage(ctx.db, user.profile_id),
  ]);
  const refusal = limits?.check(counted.usage.get(user.profile_id) ?? [], counted.limits);
  if (refusal) throw refusal;
}

/** GET /api/kyc: the sender's level, each window's limit, used and left, and what the next level takes. */
export async function kycStatus(ctx: AppContext, profileId: string): Promise<KycStatus> {
  const [profile, counted, rates] = await Promise.all([
    senderProfile(ctx, profileId), senderUsage(ctx.db, profileId), publishedRates(ctx),
  ]);
  const level = kycLevelOf(profile);
  const used = usedInEur(counted.usage.get(profileId) ?? [], rates);
  // Level 0 sends nothing: every window's limit is 0, what was sent before still shown as used.
  const own = level === 0 ? { transfer: 0, d30: 0, d365: 0 } : levelLimits(limitsByLevel(counted.limits), level);
  return {
    level,
    windows: windowStates(own, used).map((w) => ({ window: w.window, limit: eur(w.limit), used: eur(w.used)!, left: eur(w.left), currency: LIMIT_CURRENCY })),
    next: nextLevelNeeds(profile),
    open_review: null,
  };
}

// ---- the admin's limits ----

export async function limitsList(db: Db): Promise<KycLimits[]> {
  return (await listLimits(db)).map(limitsToJson);
}

/** A positive EUR amount with two decimals at most, else 400 on its field. */
function limitAmount(field: string, text: string): Minor {
  const minor = parseAmount(text, LIMIT_CURRENCY);
  if (minor === null || minor <= 0) throw new AppError('validation_failed', { fields: { [field]: 'admin.validation.kycLimitInvalid' } });
  return minor;
}

/** The admin sets a level's limits: applied to the next transfer, audited with before and after. */
export async function setLimits(db: Db, actor: Actor, levelText: string, input: KycLimitsUpdate): Promise<KycLimits> {
  const level = Number(levelText);
  if (!(SENDING_LEVELS as readonly number[]).includes(level) || String(level) !== levelText) throw new AppError('not_found');
  const minor = {
    transfer: input.transfer === null ? null : limitAmount('transfer', input.transfer),
    d30: limitAmount('d30', input.d30),
    d365: limitAmount('d365', input.d365),
  };
  const values = {
    transfer: minor.transfer === null ? null : toDecimal(minor.transfer, LIMIT_CURRENCY),
    d30: toDecimal(minor.d30, LIMIT_CURRENCY),
    d365: toDecimal(minor.d365, LIMIT_CURRENCY),
  };
  // A window shorter than another never allows more (docs/rules/know-your-sender.md#limits).
  const fields: Record<string, string> = {};
  if (minor.d30 > minor.d365) fields.d30 = 'admin.validation.kycLimitD30OverD365';
  if (minor.transfer !== null && minor.transfer > minor.d30) fields.transfer = 'admin.validation.kycLimitTransferOverD30';
  if (Object.keys(fields).length > 0) throw new AppError('kyc_limits_order', { fields, vars: { d30: values.d30, d365: values.d365 } });
  return db.transaction(async (tx) => {
    const before = await lockLimits(tx, level);
    const row = await writeLimits(tx, level, values, actor.profile_id);
    await recordAudit(tx, actor, {
      action: 'kyc_limits.update', target: 'kyc_limits', id: String(level),
      before: before && limitsToJson(before), after: limitsToJson(row),
    });
    return limitsToJson(row);
  });
}
