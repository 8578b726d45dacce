import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import en from '../locales/en/validation.json';
import fr from '../locales/fr/validation.json';
import {
  CursorQuerySchema, EmailChangeConfirmSchema, FeeTierInputSchema, FeeTierPatchSchema, LoginSchema, MfaSetupSchema, PasswordChangeSchema, PaymentInitiateSchema, ProfileUpdateSchema,
  QuoteRequestSchema, RateUpdateSchema, RecipientSchema, RegisterSchema, ResendOtpSchema, ResetPasswordConfirmSchema,
  ResetPasswordRequestSchema, RoleUpdateSchema, StatusUpdateSchema, TicketExchangeSchema, VerifyOtpSchema,
  isValidEmail, primaryErrorKey, refusingControlCharacters,
} from './schemas.js';

/** The messages of a failed parse, in order; [] when it succeeds. */
function errors(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

/** The primary (first) error, or null when the input is valid. */
function primary(schema: z.ZodType, input: unknown): string | null {
  const result = schema.safeParse(input);
  return result.success ? null : primaryErrorKey(result.error);
}

const VALID_IBAN = 'FR76 3000 6000 0112 3456 7890 189';

describe('validation messages', () => {
  it('exist in English and French with the same keys', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    for (const value of [...Object.values(en), ...Object.values(fr)]) expect(value.trim()).not.toBe('');
  });

  it('cover every key the core uses', () => {
    const sources = import.meta.glob('./*.ts', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
    const used = new Set<string>();
    for (const [file, text] of Object.entries(sources)) {
      if (file.endsWith('.test.ts')) continue;
      for (const match of text.matchAll(/'validation\.([A-Za-z]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((key) => !(key in en))).toEqual([]);
  });

  it('use the spec texts verbatim', () => {
    expect(en).toMatchObject({
      signInRequired: 'Please sign in to create a transfer.',
      pairUnsupported: 'Selected source/destination pair is not supported.',
      amountInvalid: 'Enter a valid amount greater than zero.',
      paypalEmailRequired: 'PayPal email address is required for PayPal transfers.',
      paypalNameRequired: 'Recipient account name is required for PayPal transfers.',
      recipientPhoneRequired: 'Please enter recipient phone number.',
      emailAlreadyRegistered: 'This email is already registered. Please sign in instead.',
      otpInvalid: 'Invalid or expired OTP code',
      resetEmailRequired: 'Please set your email to request a password reset.',
      genericError: 'An error occurred. Please try again.',
      networkError: 'Network error. Please check your connection.',
      notAuthorized: 'You are not authorized to perform this action.',
      notFound: 'Resource not found.',
      checkInput: 'Please check your input and try again.',
    });
  });
});

describe('helpers', () => {
  it('checks e-mails with a simple pattern (text@text.text)', () => {
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('a@b')).toBe(false);
    expect(isValidEmail('a b@c.d')).toBe(false);
  });
});

describe('RegisterSchema', () => {
  const valid = {
    email: '  Ada@Example.COM ', password: 'Analytical-9', full_name: 'Ada Lovelace', phone: '+24106123456',
    city: 'Libreville', country: 'Gabon',
  };

  it('accepts a valid registration, trimmed and lowercased', () => {
    const data = RegisterSchema.parse(valid);
    expect(data.email).toBe('ada@example.com');
    expect(data.address).toBeUndefined();
    expect(RegisterSchema.parse({ ...valid, address: '1 rue X', state: 'Estuaire' }).state).toBe('Estuaire');
  });

  it('reports each missing required field under its key', () => {
    expect(errors(RegisterSchema, {})).toEqual([
      'validation.emailRequired', 'validation.passwordRequired', 'validation.fullNameRequired', 'validation.phoneRequired',
      'validation.cityRequired', 'validation.countryRequired',
    ]);
    expect(errors(RegisterSchema, { ...valid, full_name: '   ' })).toEqual(['validation.fullNameRequired']);
  });

  it('checks the e-mail pattern and the password length', () => {
    expect(errors(RegisterSchema, { ...valid, email: 'ada@example' })).toEqual(['validation.emailInvalid']);
    expect(errors(RegisterSchema, { ...valid, password: '1234567' })).toEqual(['validation.passwordTooShort']);
    expect(errors(RegisterSchema, { ...valid, password: '' })).toEqual(['validation.passwordRequired']);
    expect(errors(RegisterSchema, { ...valid, password: '12345678' })).toEqual([]);
    expect(errors(RegisterSchema, { ...valid, password: 'x'.repeat(128) })).toEqual([]);
    expect(errors(RegisterSchema, { ...valid, password: 'x'.repeat(129) })).toEqual(['validation.passwordMaxLength']);
  });
});

describe('OTP, login and password reset', () => {
  it('requires exactly 6 digits', () => {
    expect(errors(VerifyOtpSchema, { email: 'a@b.co', otp: '123456' })).toEqual([]);
    expect(errors(VerifyOtpSchema, { email: 'a@b.co', otp: '12345' })).toEqual(['validation.otpFormat']);
    expect(errors(VerifyOtpSchema, { email: 'a@b.co', otp: '1234567' })).toEqual(['validation.otpFormat']);
    expect(errors(VerifyOtpSchema, { email: 'a@b.co', otp: 'abcdef' })).toEqual(['validation.otpFormat']);
    expect(errors(VerifyOtpSchema, { email: 'a@b.co', otp: '' })).toEqual(['validation.otpRequired']);
    expect(errors(EmailChangeConfirmSchema, { email: 'new@b.co', otp: ' 123456 ' })).toEqual([]);
    expect(errors(ResendOtpSchema, { email: '' })).toEqual(['validation.emailRequired']);
  });

  it('login only needs an e-mail and a password (no format check)', () => {
    expect(LoginSchema.parse({ email: ' Someone ', password: 'x', remember: true })).toEqual({ email: 'someone', password: 'x', remember: true });
    expect(errors(LoginSchema, { email: '', password: '' })).toEqual(['validation.emailRequired', 'validation.passwordRequired']);
  });

  it('asks for an e-mail before a reset', () => {
    expect(errors(ResetPasswordRequestSchema, { email: '' })).toEqual(['validation.enterEmailToReset']);
    expect(errors(ResetPasswordRequestSchema, {})).toEqual(['validation.enterEmailToReset']);
    expect(errors(ResetPasswordRequestSchema, { email: 'nope' })).toEqual(['validation.emailInvalid']);
    expect(errors(ResetPasswordConfirmSchema, { token: 't', password: '123' })).toEqual(['validation.passwordTooShort']);
    expect(errors(ResetPasswordConfirmSchema, { password: '12345678' })).toEqual(['validation.tokenRequired']);
  });

  it('checks roles, tickets and profile updates', () => {
    expect(errors(RoleUpdateSchema, { role: 'manager' })).toEqual([]);
    expect(errors(RoleUpdateSchema, { role: 'root' })).toEqual(['validation.roleInvalid']);
    expect(errors(TicketExchangeSchema, { ticket: '' })).toEqual(['validation.ticketRequired']);
    expect(errors(ProfileUpdateSchema, {})).toEqual(['validation.profileUpdateEmpty']);
    expect(errors(ProfileUpdateSchema, { full_name: ' ' })).toEqual(['validation.fullNameRequired']);
    expect(errors(ProfileUpdateSchema, { email: 'bad' })).toEqual(['validation.emailInvalid']);
    expect(ProfileUpdateSchema.parse({ phone: '+33 6 12 34 56 78' })).toEqual({ phone: '+33 6 12 34 56 78' });
  });

  it('carries the proof of the owner with e-mail and password changes', () => {
    expect(errors(ProfileUpdateSchema, { email: 'new@b.co', current_password: 'whatever-it-was' })).toEqual([]);
    expect(errors(ProfileUpdateSchema, { email: 'new@b.co', current_code: '12345' })).toEqual(['validation.otpFormat']);
    // The proof alone changes nothing.
    expect(errors(ProfileUpdateSchema, { current_password: 'x' })).toEqual(['validation.profileUpdateEmpty']);
    expect(errors(PasswordChangeSchema, { current_password: 'old-one', password: 'New-pass-2026' })).toEqual([]);
    expect(errors(PasswordChangeSchema, { current_code: ' 123456 ', password: 'short' })).toEqual(['validation.passwordTooShort']);
    expect(errors(PasswordChangeSchema, { current_password: 'x'.repeat(1025), password: 'New-pass-2026' })).toEqual(['validation.passwordTooLong']);
  });

  it('carries the same proof when two-step sign-in is set up (the server says which one is missing)', () => {
    expect(errors(MfaSetupSchema, {})).toEqual([]);
    expect(errors(MfaSetupSchema, { current_password: 'whatever-it-was' })).toEqual([]);
    expect(MfaSetupSchema.parse({ current_code: ' 123456 ' })).toEqual({ current_code: '123456' });
    expect(errors(MfaSetupSchema, { current_code: '12345' })).toEqual(['validation.otpFormat']);
    expect(errors(MfaSetupSchema, { current_password: 'x'.repeat(1025) })).toEqual(['validation.passwordTooLong']);
  });
});

describe('QuoteRequestSchema', () => {
  it('accepts 0 and decimals the currency has', () => {
    expect(errors(QuoteRequestSchema, { direction: 'USD_XAF', amount: '100' })).toEqual([]);
    expect(errors(QuoteRequestSchema, { direction: 'USD_XAF', amount: 100.5 })).toEqual([]);
    expect(errors(QuoteRequestSchema, { direction: 'USD_XAF', amount: '0' })).toEqual([]);
  });
  it('refuses bad amounts and directions', () => {
    expect(errors(QuoteRequestSchema, { direction: 'XAF_USD', amount: '10.5' })).toEqual(['validation.amountInvalid']);
    expect(errors(QuoteRequestSchema, { direction: 'USD_XAF', amount: 'abc' })).toEqual(['validation.amountInvalid']);
    expect(errors(QuoteRequestSchema, { direction: 'USD_XAF', amount: '-1' })).toEqual(['validation.amountInvalid']);
    expect(errors(QuoteRequestSchema, { direction: 'USD_USD', amount: '1' })).toEqual(['validation.directionInvalid']);
  });
});

describe('PaymentInitiateSchema (first failing rule, in order)', () => {
  const toPaypal = {
    source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount: '10000', currency: 'XAF',
    destination_details: { recipient_email: 'Bob@Example.com', recipient_name: 'Bob' },
  };
  const toMobile = {
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
    source_details: { note: 'for school' }, destination_details: { recipient_phone: '+241 77 12 34 56' },
  };
  const toBank = {
    source_provider: 'paypal_eur', destination_provider: 'bank_france', amount: 250.5, currency: 'EUR',
    destination_details: { account_holder: 'Claire Martin', iban: VALID_IBAN },
  };

  it('accepts valid payloads and normalizes recipient fields', () => {
    expect(PaymentInitiateSchema.parse(toPaypal).destination_details.recipient_email).toBe('bob@example.com');
    const mobile = PaymentInitiateSchema.parse({ ...toMobile, extra: 'dropped' });
    expect(mobile.destination_details.recipient_phone).toBe('+24177123456');
    expect(mobile).not.toHaveProperty('extra');
    const bank = PaymentInitiateSchema.parse({ ...toBank, destination_details: { ...toBank.destination_details, bic: 'bnpa frpp' } });
    expect(bank.destination_details.iban).toBe('FR7630006000011234567890189');
    expect(bank.destination_details.bic).toBe('BNPAFRPP');
    expect(bank.source_details).toEqual({});
  });

  it('1. reports an unsupported pair first, and only it', () => {
    const input = { ...toPaypal, destination_provider: 'mobile_rwanda', amount: 'abc', destination_details: {} };
    expect(errors(PaymentInitiateSchema, input)).toEqual(['validation.pairUnsupported']);
    expect(errors(PaymentInitiateSchema, { ...toMobile, destination_provider: 'paypal_eur' })).toEqual(['validation.pairUnsupported']);
    expect(errors(PaymentInitiateSchema, { ...toBank, source_provider: 'bank_france' })).toEqual(['validation.pairUnsupported']);
    expect(primary(PaymentInitiateSchema, { ...toMobile, destination_provider: 'venmo' })).toBe('validation.pairUnsupported');
  });

  it('2. then an amount that is not > 0 in the source currency', () => {
    for (const amount of ['0', '-5', 'abc', '', '10.555', 0, -1, '1e3']) {
      expect(errors(PaymentInitiateSchema, { ...toMobile, amount, destination_details: {} })).toEqual(['validation.amountInvalid']);
    }
    expect(errors(PaymentInitiateSchema, { ...toPaypal, amount: '10000.5' })).toEqual(['validation.amountInvalid']);
    expect(errors(PaymentInitiateSchema, { ...toMobile, amount: '100,50' })).toEqual([]);
  });

  it('3. then a currency other than the source channel’s', () => {
    expect(errors(PaymentInitiateSchema, { ...toMobile, currency: 'XAF', destination_details: {} })).toEqual(['validation.currencyMismatch']);
    expect(errors(PaymentInitiateSchema, { ...toBank, currency: 'USD' })).toEqual(['validation.currencyMismatch']);
  });

  it('4. PayPal destination: e-mail, then recipient name', () => {
    expect(errors(PaymentInitiateSchema, { ...toPaypal, destination_details: {} })).toEqual(['validation.paypalEmailRequired']);
    expect(errors(PaymentInitiateSchema, { ...toPaypal, destination_details: { recipient_email: ' ', recipient_name: 'Bob' } }))
      .toEqual(['validation.paypalEmailRequired']);
    expect(errors(PaymentInitiateSchema, { ...toPaypal, destination_details: { recipient_email: 'bob@', recipient_name: 'Bob' } }))
      .toEqual(['validation.emailInvalid']);
    expect(errors(PaymentInitiateSchema, { ...toPaypal, destination_details: { recipient_email: 'bob@x.io' } }))
      .toEqual(['validation.paypalNameRequired']);
    expect(errors(PaymentInitiateSchema, { ...toPaypal, destination_details: { recipient_email: 'bob@x.io', recipient_name: null } }))
      .toEqual(['validation.paypalNameRequired']);
  });

  it('5. mobile destination: phone required (its operator is checked with the prefix table); name optional', () => {
    expect(errors(PaymentInitiateSchema, { ...toMobile, destination_details: {} })).toEqual(['validation.recipientPhoneRequired']);
    expect(errors(PaymentInitiateSchema, { ...toMobile, destination_details: { recipient_name: 'Awa', recipient_phone: '' } }))
      .toEqual(['validation.recipientPhoneRequired']);
    expect(errors(PaymentInitiateSchema, { ...toMobile, destination_details: { recipient_phone: '+250788123456', recipient_name: null } }))
      .toEqual([]);
  });

  it('6. France bank destination: holder, IBAN checksum, optional BIC', () => {
    const bank = (details: object) => errors(PaymentInitiateSchema, { ...toBank, destination_details: details });
    expect(bank({ iban: VALID_IBAN })).toEqual(['validation.accountHolderRequired']);
    expect(bank({ recipient_name: 'Claire Martin', iban: VALID_IBAN })).toEqual([]);
    expect(bank({ account_holder: 'Claire' })).toEqual(['validation.ibanRequired']);
    expect(bank({ account_holder: 'Claire', iban: 'FR76 3000 6000 0112 3456 7890 188' })).toEqual(['validation.ibanInvalid']);
    expect(bank({ account_holder: 'Claire', iban: VALID_IBAN, bic: 'BNP' })).toEqual(['validation.bicInvalid']);
    expect(bank({ account_holder: 'Claire', iban: VALID_IBAN, bic: '' })).toEqual([]);
  });

  it('6b. France bank destination: a valid German IBAN is refused, a Monegasque one taken (France and Monaco only)', () => {
    const bank = (details: object) => errors(PaymentInitiateSchema, { ...toBank, destination_details: details });
    expect(bank({ account_holder: 'Klaus', iban: 'DE89 3704 0044 0532 0130 00' })).toEqual(['validation.ibanNotFrance']);
    expect(bank({ account_holder: 'Claire', iban: 'MC58 1122 2000 0101 2345 6789 030' })).toEqual([]);
    const saved = RecipientSchema.safeParse({ channel: 'bank_france', recipient_name: 'Klaus', iban: 'DE89370400440532013000' });
    expect(saved.error?.issues.map((i) => [i.message, i.path.join('.')])).toEqual([['validation.ibanNotFrance', 'iban']]);
  });

  it('puts the error on the field it concerns', () => {
    const result = PaymentInitiateSchema.safeParse({ ...toPaypal, destination_details: { recipient_email: 'bob@x.io' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['destination_details', 'recipient_name']);
  });

  it('limits the note to 500 characters', () => {
    expect(errors(PaymentInitiateSchema, { ...toMobile, source_details: { note: 'x'.repeat(500) } })).toEqual([]);
    expect(errors(PaymentInitiateSchema, { ...toMobile, source_details: { note: 'x'.repeat(501) } })).toEqual(['validation.noteTooLong']);
  });
});

describe('StatusUpdateSchema', () => {
  it('accepts a status with optional note and expected status', () => {
    expect(errors(StatusUpdateSchema, { status: 'completed', note: 'paid', expected_status: 'processing' })).toEqual([]);
  });
  it('refuses unknown statuses and long texts', () => {
    expect(errors(StatusUpdateSchema, { status: 'approved' })).toEqual(['validation.statusInvalid']);
    expect(errors(StatusUpdateSchema, { status: 'rejected', note: 'x'.repeat(1001) })).toEqual(['validation.statusNoteTooLong']);
    expect(errors(StatusUpdateSchema, { status: 'rejected', expected_status: 'done' })).toEqual(['validation.statusInvalid']);
  });
});

describe('FeeTierInputSchema', () => {
  const valid = { direction: 'USD_XAF', percentage: '0.045', min_amount: '1', max_amount: '100', min_fee: '3' };

  it('takes the percentage as a fraction and normalizes decimals', () => {
    expect(FeeTierInputSchema.parse(valid)).toEqual(valid);
    expect(FeeTierInputSchema.parse({ ...valid, percentage: 0.039, min_amount: 100, max_amount: '', min_fee: null })).toEqual({
      direction: 'USD_XAF', percentage: '0.039', min_amount: '100', max_amount: null, min_fee: null,
    });
    expect(FeeTierInputSchema.parse({ direction: 'XAF_USD', percentage: '0,042', min_amount: '5000.00', max_amount: null })).toEqual({
      direction: 'XAF_USD', percentage: '0.042', min_amount: '5000', max_amount: null, min_fee: null,
    });
  });

  it('requires 0 < percentage < 1 with at most 6 decimals (a percent with 4)', () => {
    for (const percentage of ['0', '1', '4.5', '-0.01', 'abc', '']) {
      expect(errors(FeeTierInputSchema, { ...valid, percentage })).toEqual(['validation.feePercentageRange']);
    }
    expect(errors(FeeTierInputSchema, { ...valid, percentage: '0.999999' })).toEqual([]);
    expect(errors(FeeTierInputSchema, { ...valid, percentage: '0.0412345' })).toEqual(['validation.feePercentagePrecision']);
  });

  it('checks amounts against the source currency, then min < max, then the min fee', () => {
    expect(errors(FeeTierInputSchema, { ...valid, min_amount: '1.005' })).toEqual(['validation.feeAmountInvalid']);
    expect(errors(FeeTierInputSchema, { ...valid, direction: 'XAF_USD', min_amount: '5000.5', max_amount: null }))
      .toEqual(['validation.feeAmountInvalid']);
    expect(errors(FeeTierInputSchema, { ...valid, min_amount: 'x' })).toEqual(['validation.feeAmountInvalid']);
    expect(errors(FeeTierInputSchema, { ...valid, min_amount: '100' })).toEqual(['validation.feeMinMax']);
    expect(errors(FeeTierInputSchema, { ...valid, min_amount: '200' })).toEqual(['validation.feeMinMax']);
    expect(errors(FeeTierInputSchema, { ...valid, min_fee: '-1' })).toEqual(['validation.feeMinFeeInvalid']);
    expect(errors(FeeTierInputSchema, { ...valid, min_fee: '0.001' })).toEqual(['validation.feeMinFeeInvalid']);
    expect(errors(FeeTierInputSchema, { ...valid, direction: 'USD_USD' })).toEqual(['validation.directionInvalid']);
  });
});

describe('FeeTierPatchSchema', () => {
  it('keeps absent fields absent and null as "none"', () => {
    expect(FeeTierPatchSchema.parse({ percentage: '0.02' })).toEqual({ percentage: '0.02' });
    expect(FeeTierPatchSchema.parse({ max_amount: null, min_fee: '' })).toEqual({ max_amount: null, min_fee: null });
    expect(errors(FeeTierPatchSchema, { percentage: 'abc' })).toEqual(['validation.feePercentageRange']);
  });
});

describe('RateUpdateSchema', () => {
  it('accepts positive decimals for the five keys', () => {
    expect(RateUpdateSchema.parse({ key: 'EUR_USD', value: 1.08 })).toEqual({ key: 'EUR_USD', value: '1.08' });
    expect(RateUpdateSchema.parse({ key: 'USD_XAF', value: '610.50' })).toEqual({ key: 'USD_XAF', value: '610.5' });
  });
  it('refuses zero, negatives, garbage and unknown keys', () => {
    for (const value of ['0', '0.00', '-1', 'abc', '', '1e3']) {
      expect(errors(RateUpdateSchema, { key: 'USD_XAF', value })).toEqual(['validation.rateInvalid']);
    }
    expect(errors(RateUpdateSchema, { key: 'XAF_USD', value: '0.0016' })).toEqual(['validation.rateKeyInvalid']);
  });
});

describe('RecipientSchema', () => {
  it('checks what the channel needs', () => {
    expect(errors(RecipientSchema, { channel: 'paypal_eur', recipient_email: 'a@b.co', recipient_name: 'A' })).toEqual([]);
    expect(errors(RecipientSchema, { channel: 'paypal_eur', recipient_name: 'A' })).toEqual(['validation.paypalEmailRequired']);
    expect(errors(RecipientSchema, { channel: 'mobile_rwanda', label: 'Mum' })).toEqual(['validation.recipientPhoneRequired']);
    expect(errors(RecipientSchema, { channel: 'bank_france', iban: VALID_IBAN })).toEqual(['validation.accountHolderRequired']);
    expect(RecipientSchema.safeParse({ channel: 'bank_france', iban: VALID_IBAN }).error?.issues[0]?.path).toEqual(['recipient_name']);
    expect(errors(RecipientSchema, { channel: 'bank_france', recipient_name: 'C', iban: VALID_IBAN })).toEqual([]);
    expect(errors(RecipientSchema, { channel: 'cash' })).toEqual(['validation.channelInvalid']);
  });
});

describe('CursorQuerySchema', () => {
  it('defaults the limit to 20 and coerces query strings', () => {
    expect(CursorQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(CursorQuerySchema.parse({ limit: '50', status: 'pending', q: ' abc ', cursor: 'xyz' }))
      .toEqual({ limit: 50, status: 'pending', q: 'abc', cursor: 'xyz' });
  });
  it('refuses limits outside 1..100, unknown statuses and long searches', () => {
    for (const limit of ['0', '101', '2.5', 'abc']) expect(errors(CursorQuerySchema, { limit })).toEqual(['validation.limitRange']);
    expect(errors(CursorQuerySchema, { status: 'all' })).toEqual(['validation.statusInvalid']);
    expect(errors(CursorQuerySchema, { q: 'x'.repeat(101) })).toEqual(['validation.searchTooLong']);
  });
});

describe('refusingControlCharacters', () => {
  const schema = refusingControlCharacters(z.object({ name: z.string(), tags: z.array(z.string()).optional() }));
  it('refuses C0 (but tab, LF, CR), DEL and C1 anywhere in the input, naming each path, keys included', () => {
    const result = schema.safeParse({ name: 'a\u0000b', tags: ['ok', 'x\u001by', 'z\u009f'], ['k\u0007']: 'v' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'validation.controlCharacters'], ['tags.1', 'validation.controlCharacters'], ['tags.2', 'validation.controlCharacters'],
      ['k\u0007', 'validation.controlCharacters'],
    ]);
    expect(schema.safeParse({ name: 'del\u007f' }).success).toBe(false);
  });
  it('lets tabs, line breaks and every other character through to the schema', () => {
    expect(schema.parse({ name: 'Dépôt\t€\r\nligne 2 — 日本', tags: [] })).toEqual({ name: 'Dépôt\t€\r\nligne 2 — 日本', tags: [] });
  });
});
