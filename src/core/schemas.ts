// Request schemas shared by the server and the web. Every message is an i18n key of the
// `validation` namespace (src/locales/{lng}/validation.json), never display text.
import { z } from 'zod';
import { CHANNELS, CHANNEL_IDS, DIRECTION_IDS, directionById, isSupportedPair, type ChannelKind } from './channels.js';
import { FRANCE_BANK_IBAN_COUNTRIES, isIbanOfCountries, isValidBic, isValidIban, normalizeBic, normalizeIban } from './iban.js';
import { CURRENCIES, normalizeDecimal, parseAmount, parseDecimal, compareDecimal } from './money.js';
import { MAX_QUOTE_MINUTES } from './quotes.js';
import { RATE_KEYS } from './rates.js';
import { dateOfBirthRefusal } from './kyc.js';
import { ROLES, TRANSFER_STATUSES } from './status.js';

/** Text, at-sign, text, dot, text. Deliberately simple (docs/rules/accounts.md#sign-up). */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** "+241 06 12-34-56" → "+24106123456": separators people type are dropped. */
function compactPhone(value: string): string {
  return value.trim().replace(/[\s().-]/g, '');
}

/**
 * Characters no text the app takes may hold: the C0 controls but tab, line feed and carriage
 * return (notes and messages span lines), DEL and the C1 controls. No one types them; PostgreSQL
 * refuses NUL in text outright (docs/rules/accounts.md#text-fields).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export function hasControlCharacter(value: string): boolean {
  return CONTROL_CHARACTER.test(value);
}

/** The path of every string in `value` (object keys included) that holds a control character. */
function controlCharacterPaths(value: unknown, path: PropertyKey[] = [], found: PropertyKey[][] = []): PropertyKey[][] {
  if (typeof value === 'string') {
    if (hasControlCharacter(value)) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => controlCharacterPaths(item, [...path, i], found));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (hasControlCharacter(key)) found.push([...path, key]);
      else controlCharacterPaths(item, [...path, key], found);
    }
  }
  return found;
}

/**
 * `schema`, with every string of its input checked first for control characters: the one check
 * the server puts before each request schema (body, query, path) and each schema it parses input
 * with, so no text field can be left without it. A refused input is not parsed further.
 */
export function refusingControlCharacters<T extends z.ZodType>(schema: T) {
  return z.unknown().superRefine((value, ctx) => {
    for (const path of controlCharacterPaths(value)) ctx.addIssue({ code: 'custom', message: 'validation.controlCharacters', path });
  }).pipe(schema);
}

/** The message of the first issue: the primary error, reported first in the spec's order. */
export function primaryErrorKey(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'validation.checkInput';
}

/** At least 8, at most 128 characters (OWASP ASVS 6.2.1; docs/rules/accounts.md#passwords). */
const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 128;
export const OTP_LENGTH = 6;

// ---- field builders ----

function requiredText(key: string, max = 200) {
  return z
    .string({ error: key })
    .trim()
    .min(1, { error: key, abort: true })
    .max(max, { error: 'validation.tooLong' });
}

function optionalText(max = 200) {
  return z.string({ error: 'validation.checkInput' }).trim().max(max, { error: 'validation.tooLong' }).optional();
}

function emailField(requiredKey = 'validation.emailRequired') {
  return z
    .string({ error: requiredKey })
    .trim()
    .toLowerCase()
    .min(1, { error: requiredKey, abort: true })
    .max(254, { error: 'validation.emailInvalid', abort: true })
    .regex(EMAIL_PATTERN, { error: 'validation.emailInvalid' });
}

function newPassword() {
  return z
    .string({ error: 'validation.passwordRequired' })
    .min(1, { error: 'validation.passwordRequired', abort: true })
    .min(MIN_PASSWORD_LENGTH, { error: 'validation.passwordTooShort', abort: true })
    .max(MAX_PASSWORD_LENGTH, { error: 'validation.passwordMaxLength' });
}

function otpField() {
  return z
    .string({ error: 'validation.otpRequired' })
    .trim()
    .min(1, { error: 'validation.otpRequired', abort: true })
    .regex(/^\d{6}$/, { error: 'validation.otpFormat' });
}

/** An amount as typed (string) or sent as JSON number; checked against a currency by the object. */
const amountInput = z.union([z.string(), z.number()], { error: 'validation.amountInvalid' });

/** A non-negative decimal, normalized to its canonical string ("4.50" → "4.5"). */
function decimalField(key: string) {
  return z.union([z.string(), z.number()], { error: key }).transform((value, ctx) => {
    const normalized = normalizeDecimal(value);
    if (normalized === null) {
      ctx.addIssue({ code: 'custom', message: key });
      return z.NEVER;
    }
    return normalized;
  });
}

/** Like decimalField, but null, undefined or blank mean "none" (null). */
function optionalDecimalField(key: string) {
  return z
    .union([z.string(), z.number(), z.null()], { error: key })
    .optional()
    .transform((value, ctx) => {
      if (value == null || (typeof value === 'string' && value.trim() === '')) return null;
      const normalized = normalizeDecimal(value);
      if (normalized === null) {
        ctx.addIssue({ code: 'custom', message: key });
        return z.NEVER;
      }
      return normalized;
    });
}

// ---- authentication and profile ----

export const RegisterSchema = z.object({
  email: emailField(),
  password: newPassword(),
  full_name: requiredText('validation.fullNameRequired'),
  phone: requiredText('validation.phoneRequired', 32),
  address: optionalText(300),
  state: optionalText(100),
  city: requiredText('validation.cityRequired', 100),
  country: requiredText('validation.countryRequired', 100),
});
export type Register = z.infer<typeof RegisterSchema>;

export const VerifyOtpSchema = z.object({ email: emailField(), otp: otpField() });

export const ResendOtpSchema = z.object({ email: emailField() });

/**
 * On sign-in the e-mail format is not checked, only presence
 * (docs/rules/accounts.md#sign-in-throttling).
 */
export const LoginSchema = z.object({
  email: z
    .string({ error: 'validation.emailRequired' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'validation.emailRequired', abort: true })
    .max(254, { error: 'validation.tooLong' }),
  password: z
    .string({ error: 'validation.passwordRequired' })
    .min(1, { error: 'validation.passwordRequired', abort: true })
    .max(1024, { error: 'validation.passwordTooLong' }),
  remember: z.boolean({ error: 'validation.checkInput' }).optional(),
});
export type Login = z.infer<typeof LoginSchema>;

/** Forgot password: "enter email to reset" when the e-mail is empty. */
export const ResetPasswordRequestSchema = z.object({ email: emailField('validation.enterEmailToReset') });

export const ResetPasswordConfirmSchema = z.object({
  token: requiredText('validation.tokenRequired', 512),
  password: newPassword(),
});
export type ResetPasswordConfirm = z.infer<typeof ResetPasswordConfirmSchema>;

/**
 * Proof that the signed-in caller is the account's owner (docs/rules/accounts.md#passwords),
 * asked before the e-mail or the password changes and before two-step sign-in is set up: the
 * current password, or (an account without one) a code mailed to it.
 */
const reauthFields = {
  current_password: z.string({ error: 'validation.checkInput' }).max(1024, { error: 'validation.passwordTooLong' }).optional(),
  current_code: otpField().optional(),
};

/** Today's calendar day (UTC), `YYYY-MM-DD`: what a date of birth is checked against. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

const DATE_OF_BIRTH_MESSAGES = {
  invalid: 'validation.dateOfBirthInvalid', future: 'validation.dateOfBirthFuture', under_age: 'validation.dateOfBirthUnderAge',
} as const;

/** `YYYY-MM-DD`, a real day, in the past, of someone at least 18 (docs/rules/know-your-sender.md#levels). */
const dateOfBirthField = () => z
  .string({ error: 'validation.dateOfBirthInvalid' })
  .trim()
  .superRefine((value, ctx) => {
    const refusal = dateOfBirthRefusal(value, todayUtc());
    if (refusal) ctx.addIssue({ code: 'custom', message: DATE_OF_BIRTH_MESSAGES[refusal] });
  });

/** What the profile screen changes; the address fields complete the profile for sending (docs/rules/know-your-sender.md#levels). */
export const ProfileUpdateSchema = z
  .object({
    full_name: requiredText('validation.fullNameRequired').optional(),
    phone: requiredText('validation.phoneRequired', 32).optional(),
    email: emailField().optional(),
    date_of_birth: dateOfBirthField().optional(),
    address: requiredText('validation.addressRequired', 300).optional(),
    state: optionalText(100),
    city: requiredText('validation.cityRequired', 100).optional(),
    country: requiredText('validation.countryRequired', 100).optional(),
    ...reauthFields,
  })
  .refine((p) => (['full_name', 'phone', 'email', 'date_of_birth', 'address', 'state', 'city', 'country'] as const).some((k) => p[k] !== undefined), {
    error: 'validation.profileUpdateEmpty',
  });
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/** A signed-in password change (every other session ends). */
export const PasswordChangeSchema = z.object({ ...reauthFields, password: newPassword() });

/** Closing one's own account takes the same proof (docs/rules/your-data.md#closing-your-account). */
export const AccountCloseSchema = z.object({ ...reauthFields });
export type AccountClose = z.infer<typeof AccountCloseSchema>;
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

/**
 * A new e-mail takes effect once it confirms the code sent to it
 * (docs/rules/accounts.md#passwords).
 */
export const EmailChangeConfirmSchema = z.object({ email: emailField(), otp: otpField() });
export type EmailChangeConfirm = z.infer<typeof EmailChangeConfirmSchema>;

export const RoleUpdateSchema = z.object({ role: z.enum(ROLES, { error: 'validation.roleInvalid' }) });
export type RoleUpdate = z.infer<typeof RoleUpdateSchema>;

/** The single-use OAuth ticket exchanged for a session token (docs/rules/accounts.md#codes). */
export const TicketExchangeSchema = z.object({ ticket: requiredText('validation.ticketRequired', 512) });

// ---- quotes and transfers ----

/**
 * Amount 0 is allowed here: the calculator shows fee 0 and total = amount
 * (docs/rules/fees-and-rates.md#quote).
 */
/**
 * Either `amount`, what the sender pays before the fee, or `payout`, what the recipient is to get
 * (docs/rules/fees-and-rates.md#a-quote-is-a-promise): exactly one of them.
 */
export const QuoteRequestSchema = z
  .object({
    direction: z.enum(DIRECTION_IDS, { error: 'validation.directionInvalid' }),
    amount: amountInput.optional(),
    payout: amountInput.optional(),
  })
  .superRefine((q, ctx) => {
    const direction = directionById(q.direction);
    if ((q.amount === undefined) === (q.payout === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'validation.amountOrPayout', path: [q.amount === undefined ? 'amount' : 'payout'] });
      return;
    }
    if (!direction) return;
    if (q.amount !== undefined && parseAmount(q.amount, direction.from) === null) {
      ctx.addIssue({ code: 'custom', message: 'validation.amountInvalid', path: ['amount'] });
    }
    if (q.payout !== undefined && parseAmount(q.payout, direction.to) === null) {
      ctx.addIssue({ code: 'custom', message: 'validation.amountInvalid', path: ['payout'] });
    }
  });

/** How long a corridor's quotes hold, in whole minutes: a minute to a week. */
export const QuoteValidityInputSchema = z.object({
  direction: z.enum(DIRECTION_IDS, { error: 'validation.directionInvalid' }),
  minutes: z.number({ error: 'validation.quoteMinutesInvalid' }).int({ error: 'validation.quoteMinutesInvalid' })
    .min(1, { error: 'validation.quoteMinutesInvalid' }).max(MAX_QUOTE_MINUTES, { error: 'validation.quoteMinutesInvalid' }),
});
export type QuoteValidityInput = z.infer<typeof QuoteValidityInputSchema>;

interface RecipientFields {
  recipient_name?: string | null | undefined;
  recipient_email?: string | undefined;
  recipient_phone?: string | undefined;
  iban?: string | undefined;
  bic?: string | undefined;
  account_holder?: string | undefined;
}

/**
 * The first failing recipient rule for a destination kind, in the order of
 * docs/rules/corridors.md#recipient-details, as [message, field].
 */
function recipientError(kind: ChannelKind, r: RecipientFields): [string, keyof RecipientFields] | null {
  const blank = (v: string | null | undefined) => v == null || v.trim() === '';
  if (kind === 'paypal') {
    if (blank(r.recipient_email)) return ['validation.paypalEmailRequired', 'recipient_email'];
    if (!isValidEmail(r.recipient_email!)) return ['validation.emailInvalid', 'recipient_email'];
    if (blank(r.recipient_name)) return ['validation.paypalNameRequired', 'recipient_name'];
  } else if (kind === 'mobile') {
    // Whether it is a number of the destination's operators needs their current ranges: checked
    // next, with them, by readMobileNumber (core/operators.ts) on the server and the screen.
    if (blank(r.recipient_phone)) return ['validation.recipientPhoneRequired', 'recipient_phone'];
  } else {
    if (blank(r.account_holder) && blank(r.recipient_name)) return ['validation.accountHolderRequired', 'account_holder'];
    if (blank(r.iban)) return ['validation.ibanRequired', 'iban'];
    if (!isValidIban(r.iban!)) return ['validation.ibanInvalid', 'iban'];
    // The only bank channel pays into France and Monaco.
    if (!isIbanOfCountries(r.iban!, FRANCE_BANK_IBAN_COUNTRIES)) return ['validation.ibanNotFrance', 'iban'];
    if (!blank(r.bic) && !isValidBic(r.bic!)) return ['validation.bicInvalid', 'bic'];
  }
  return null;
}

const recipientText = (max = 200) =>
  z.string({ error: 'validation.checkInput' }).trim().max(max, { error: 'validation.tooLong' });
const recipientEmail = () => recipientText(254).toLowerCase().optional();
const recipientPhone = () => recipientText(40).overwrite(compactPhone).optional();
const ibanText = () => recipientText(64).overwrite(normalizeIban).optional();
const bicText = () => recipientText(20).overwrite(normalizeBic).optional();

const MAX_NOTE_LENGTH = 500;

/**
 * Payment initiation payload, with bank_france destinations and saved recipients.
 * Rules run in a fixed order and only the first failing one is reported, so the primary error
 * is always issues[0]: pair, amount, currency, then the destination's recipient fields.
 * (Being signed in is checked by the server before this schema.)
 */
export const PaymentInitiateSchema = z
  .object({
    source_provider: z.enum(CHANNEL_IDS, { error: 'validation.pairUnsupported' }),
    destination_provider: z.enum(CHANNEL_IDS, { error: 'validation.pairUnsupported' }),
    amount: amountInput,
    currency: z.enum(CURRENCIES, { error: 'validation.currencyMismatch' }),
    destination_details: z
      .object({
        recipient_name: recipientText().nullable().optional(),
        recipient_email: recipientEmail(),
        recipient_phone: recipientPhone(),
        iban: ibanText(),
        bic: bicText(),
        account_holder: recipientText().optional(),
      }, { error: 'validation.checkInput' })
      .default({}),
    source_details: z
      .object({ note: z.string({ error: 'validation.checkInput' }).trim().optional() }, { error: 'validation.checkInput' })
      .default({}),
    save_recipient: z.boolean({ error: 'validation.checkInput' }).optional(),
    /** The quote whose price the transfer takes (docs/rules/fees-and-rates.md#a-quote-is-a-promise). */
    quote_id: z.uuid({ error: 'validation.quoteIdInvalid' }).optional(),
  })
  .superRefine((p, ctx) => {
    if (!isSupportedPair(p.source_provider, p.destination_provider)) {
      ctx.addIssue({ code: 'custom', message: 'validation.pairUnsupported', path: ['destination_provider'] });
      return;
    }
    const source = CHANNELS[p.source_provider];
    const amount = parseAmount(p.amount, source.currency);
    if (amount === null || amount <= 0) {
      ctx.addIssue({ code: 'custom', message: 'validation.amountInvalid', path: ['amount'] });
      return;
    }
    if (p.currency !== source.currency) {
      ctx.addIssue({ code: 'custom', message: 'validation.currencyMismatch', path: ['currency'] });
      return;
    }
    const failure = recipientError(CHANNELS[p.destination_provider].kind, p.destination_details);
    if (failure) {
      ctx.addIssue({ code: 'custom', message: failure[0], path: ['destination_details', failure[1]] });
      return;
    }
    if ((p.source_details.note?.length ?? 0) > MAX_NOTE_LENGTH) {
      ctx.addIssue({ code: 'custom', message: 'validation.noteTooLong', path: ['source_details', 'note'] });
    }
  });
export type PaymentInitiate = z.infer<typeof PaymentInitiateSchema>;

export const StatusUpdateSchema = z.object({
  status: z.enum(TRANSFER_STATUSES, { error: 'validation.statusInvalid' }),
  note: z.string({ error: 'validation.checkInput' }).trim().max(1000, { error: 'validation.statusNoteTooLong' }).optional(),
  /** Optimistic concurrency: the status the staff member saw; a mismatch is a 409. */
  expected_status: z.enum(TRANSFER_STATUSES, { error: 'validation.statusInvalid' }).optional(),
});
export type StatusUpdate = z.infer<typeof StatusUpdateSchema>;

// ---- back office: the money of a transfer (docs/rules/money-states.md) ----

const providerReference = (requiredKey: string) => z
  .string({ error: requiredKey })
  .trim()
  .min(1, { error: requiredKey })
  .max(120, { error: 'validation.referenceTooLong' });

/** Staff record money paid by hand: the amount as their statement shows it, and its reference. */
export const PaymentRecordSchema = z.object({
  amount: decimalField('validation.paymentAmountInvalid'),
  reference: providerReference('validation.paymentReferenceRequired'),
});
export type PaymentRecord = z.infer<typeof PaymentRecordSchema>;

/** Staff record the payout sent, with the operator's or bank's reference. */
export const PayoutRecordSchema = z.object({ reference: providerReference('validation.payoutReferenceRequired') });
export type PayoutRecord = z.infer<typeof PayoutRecordSchema>;

/** Staff record the refund made; a PayPal refund's reference comes from PayPal, so it may be left out. */
export const RefundRecordSchema = z.object({ reference: providerReference('validation.refundReferenceRequired').optional() });
export type RefundRecord = z.infer<typeof RefundRecordSchema>;

// ---- back office: fee tiers and rates ----

/** The fee fraction column holds 6 decimals (a percent shown with 4). */
const MAX_FRACTION_DECIMALS = 6;
const ONE = { units: 1n, scale: 0 };

const FeeTierFieldsSchema = z.object({
  direction: z.enum(DIRECTION_IDS, { error: 'validation.directionInvalid' }),
  percentage: decimalField('validation.feePercentageRange'),
  min_amount: decimalField('validation.feeAmountInvalid'),
  max_amount: optionalDecimalField('validation.feeAmountInvalid'),
  min_fee: optionalDecimalField('validation.feeMinFeeInvalid'),
});

/**
 * An admin's fee tier. `percentage` is a FRACTION ("0.045" for 4.5 %, 0 < p < 1), as the API
 * answers it; screens show and take a percent and convert (fees.ts). Amounts are in the
 * direction's source currency and may not have more decimals than it.
 */
export const FeeTierInputSchema = FeeTierFieldsSchema.superRefine((t, ctx) => {
  const fraction = parseDecimal(t.percentage)!;
  if (fraction.units === 0n || compareDecimal(fraction, ONE) >= 0) {
    ctx.addIssue({ code: 'custom', message: 'validation.feePercentageRange', path: ['percentage'] });
    return;
  }
  if (fraction.scale > MAX_FRACTION_DECIMALS) {
    ctx.addIssue({ code: 'custom', message: 'validation.feePercentagePrecision', path: ['percentage'] });
    return;
  }
  const currency = directionById(t.direction).from;
  for (const field of ['min_amount', 'max_amount'] as const) {
    const value = t[field];
    if (value !== null && parseAmount(value, currency) === null) {
      ctx.addIssue({ code: 'custom', message: 'validation.feeAmountInvalid', path: [field] });
      return;
    }
  }
  if (t.max_amount !== null && compareDecimal(parseDecimal(t.min_amount)!, parseDecimal(t.max_amount)!) >= 0) {
    ctx.addIssue({ code: 'custom', message: 'validation.feeMinMax', path: ['max_amount'] });
    return;
  }
  if (t.min_fee !== null && parseAmount(t.min_fee, currency) === null) {
    ctx.addIssue({ code: 'custom', message: 'validation.feeMinFeeInvalid', path: ['min_fee'] });
  }
});
export type FeeTierInput = z.infer<typeof FeeTierInputSchema>;

/**
 * A tier edit: only the fields sent change (null clears max_amount or min_fee). The server
 * checks the tier they make with the stored fields by FeeTierInputSchema.
 */
export const FeeTierPatchSchema = FeeTierFieldsSchema.partial();
export type FeeTierPatch = z.infer<typeof FeeTierPatchSchema>;

/** The rates column holds 10 decimals. */
const MAX_RATE_DECIMALS = 10;

export const RateUpdateSchema = z
  .object({
    key: z.enum(RATE_KEYS, { error: 'validation.rateKeyInvalid' }),
    value: decimalField('validation.rateInvalid'),
  })
  .superRefine((r, ctx) => {
    const value = parseDecimal(r.value)!;
    const tooLarge = compareDecimal(value, { units: 10n ** 12n, scale: 0 }) >= 0;
    if (value.units === 0n || value.scale > MAX_RATE_DECIMALS || tooLarge) {
      ctx.addIssue({ code: 'custom', message: 'validation.rateInvalid', path: ['value'] });
    }
  });

// ---- saved recipients and lists ----

/**
 * A saved recipient holds what its channel needs, checked like a transfer's destination
 * (docs/rules/corridors.md#saved-recipients).
 */
export const RecipientSchema = z
  .object({
    label: recipientText(60).optional(),
    channel: z.enum(CHANNEL_IDS, { error: 'validation.channelInvalid' }),
    recipient_name: recipientText().nullable().optional(),
    recipient_email: recipientEmail(),
    recipient_phone: recipientPhone(),
    iban: ibanText(),
    bic: bicText(),
    /** The channel the sender pays with for this recipient (a transfer saving it sets it). */
    paid_from: z.enum(CHANNEL_IDS, { error: 'validation.channelInvalid' }).optional(),
  })
  .superRefine((r, ctx) => {
    const failure = recipientError(CHANNELS[r.channel].kind, r);
    if (failure) {
      // A saved bank recipient has no separate account holder: its name is the holder.
      const field = failure[1] === 'account_holder' ? 'recipient_name' : failure[1];
      ctx.addIssue({ code: 'custom', message: failure[0], path: [field] });
    }
  });
export type Recipient = z.infer<typeof RecipientSchema>;

/**
 * A mobile-money recipient the sender corrects when the operator's name check stopped the payout
 * (docs/rules/payout-rails.md#name-check): the name and the number, both required, read as at
 * initiation (the number is then checked against the destination's operators, on the server and
 * the screen).
 */
export const RecipientCorrectionSchema = z.object({
  recipient_name: recipientText().refine((v) => v !== '', { error: 'validation.recipientNameRequired' }),
  recipient_phone: recipientText(40).overwrite(compactPhone).refine((v) => v !== '', { error: 'validation.recipientPhoneRequired' }),
}, { error: 'validation.checkInput' });
export type RecipientCorrection = z.infer<typeof RecipientCorrectionSchema>;

/**
 * A French bank account the sender corrects when the bank sent the payout back
 * (docs/rules/payout-rails.md#paying-again): the account holder and the IBAN, read as at initiation.
 */
export const BankAccountCorrectionSchema = z.object({
  account_holder: recipientText(),
  iban: recipientText(64).overwrite(normalizeIban),
}, { error: 'validation.checkInput' }).superRefine((r, ctx) => {
  const failure = recipientError('bank', r);
  if (failure) ctx.addIssue({ code: 'custom', message: failure[0], path: [failure[1]] });
});
export type BankAccountCorrection = z.infer<typeof BankAccountCorrectionSchema>;

export const CursorQuerySchema = z.object({
  cursor: z.string({ error: 'validation.cursorInvalid' }).max(500, { error: 'validation.cursorInvalid' }).optional(),
  limit: z.coerce
    .number({ error: 'validation.limitRange' })
    .int({ error: 'validation.limitRange' })
    .min(1, { error: 'validation.limitRange' })
    .max(100, { error: 'validation.limitRange' })
    .default(20),
  status: z.enum(TRANSFER_STATUSES, { error: 'validation.statusInvalid' }).optional(),
  q: z.string({ error: 'validation.checkInput' }).trim().max(100, { error: 'validation.searchTooLong' }).optional(),
});

// ---- two-step sign-in (docs/rules/accounts.md#two-step-sign-in) ----

/** A recovery code as shown ("abcde-23456"): ten of these letters and digits, the dash optional. */
const RECOVERY_CODE_PATTERN = /^[a-z2-9]{5}-?[a-z2-9]{5}$/;

/** A 6-digit code from the authenticator app, or a recovery code; spaces and case do not matter. */
function mfaCodeField() {
  return z
    .string({ error: 'validation.mfaCodeRequired' })
    .transform((v) => v.replace(/\s+/g, '').toLowerCase())
    .pipe(z.string().min(1, { error: 'validation.mfaCodeRequired', abort: true })
      .refine((v) => /^\d{6}$/.test(v) || RECOVERY_CODE_PATTERN.test(v), { error: 'validation.mfaCodeFormat' }));
}

/** The second step of a sign-in: the token the password step gave, and a code. */
export const MfaVerifySchema = z.object({
  mfa_token: requiredText('validation.mfaTokenRequired', 200),
  code: mfaCodeField(),
});
export type MfaVerify = z.infer<typeof MfaVerifySchema>;

/**
 * Enrolment starts by proving the owner, as an e-mail or password change does (decision 008):
 * the current password, or (an account without one) the code mailed to it. Only then is a
 * secret made and shown (docs/rules/accounts.md#two-step-sign-in).
 */
export const MfaSetupSchema = z.object({ ...reauthFields });
export type MfaSetup = z.infer<typeof MfaSetupSchema>;

/** Enrolment ends with a code from the app (a recovery code cannot exist yet). */
export const MfaEnableSchema = z.object({ code: otpField() });

/** A code from the app or a recovery code, alone (the code step's form, turning it off). */
export const MfaCodeSchema = z.object({ code: mfaCodeField() });

/** Turning two-step sign-in off takes a current code from the app, or a recovery code. */
export const MfaDisableSchema = MfaCodeSchema;
