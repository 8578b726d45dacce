import { describe, expect, it } from 'vitest';
import {
  DEFAULT_KYC_LIMITS, dateOfBirthRefusal, kycLevelOf, limitRefusal, missingProfileFields, nearLimit, nextLevelNeeds,
  recipientNameRequired, toLimitCurrency, usedInEur, windowExceeded, windowStates,
} from './kyc.js';
import { SEED_RATES } from './rates.js';

const complete = {
  full_name: 'Awa Ndong', date_of_birth: '1990-04-12', phone: '+24106123456', address: '12 rue des Palmiers',
  city: 'Libreville', country: 'GA', kyc_level: 0, screened: true,
};

describe('levels', () => {
  it('a complete profile is level 1; a missing date of birth keeps it at 0, even after an approval', () => {
    expect(kycLevelOf(complete)).toBe(1);
    expect(kycLevelOf({ ...complete, date_of_birth: null })).toBe(0);
    expect(kycLevelOf({ ...complete, date_of_birth: null, kyc_level: 2 })).toBe(0);
    expect(kycLevelOf({ ...complete, kyc_level: 2 })).toBe(2);
    expect(missingProfileFields({ ...complete, address: '  ', date_of_birth: null })).toEqual(['date_of_birth', 'address']);
  });

  it('says what the next level takes', () => {
    expect(nextLevelNeeds({ ...complete, city: null })).toEqual({ level: 1, provide: ['city'] });
    expect(nextLevelNeeds(complete)).toEqual({ level: 2, provide: ['identity_document', 'selfie'] });
    expect(nextLevelNeeds({ ...complete, kyc_level: 3 })).toBeNull();
  });

  it('a complete profile whose own screening has not run is level 0 until it runs, whatever staff approved; missing fields are said first', () => {
    expect(kycLevelOf({ ...complete, screened: false })).toBe(0);
    expect(kycLevelOf({ ...complete, screened: false, kyc_level: 2 })).toBe(0);
    expect(nextLevelNeeds({ ...complete, screened: false })).toEqual({ level: 1, provide: ['screening'] });
    expect(nextLevelNeeds({ ...complete, screened: false, phone: null })).toEqual({ level: 1, provide: ['phone'] });
  });
});

describe('amounts in EUR', () => {
  it('converts at the published rates exactly, rounding up to the cent', () => {
    // 1 EUR = 1.08 USD, 655 XAF, 1400 RWF
    expect(toLimitCurrency(1_080_00n, 'USD', SEED_RATES)).toBe(1_000_00n);
    expect(toLimitCurrency(1_080_01n, 'USD', SEED_RATES)).toBe(1_000_01n);
    expect(toLimitCurrency(655_000n, 'XAF', SEED_RATES)).toBe(1_000_00n);
    expect(toLimitCurrency(655_001n, 'XAF', SEED_RATES)).toBe(1_000_01n);
    expect(toLimitCurrency(1_400n, 'RWF', SEED_RATES)).toBe(1_00n);
    expect(toLimitCurrency(12_34n, 'EUR', SEED_RATES)).toBe(12_34n);
  });

  it('adds each currency\'s sums in EUR', () => {
    const used = usedInEur([
      { currency: 'EUR', d30: '100.00', d365: '300.00' },
      { currency: 'USD', d30: '108.00', d365: '216.00' },
    ], SEED_RATES);
    expect(used).toEqual({ d30: 200_00n, d365: 500_00n });
  });
});

describe('windows', () => {
  const level1 = DEFAULT_KYC_LIMITS[1];

  it('shows limit, used and left of each window, never a negative left', () => {
    expect(windowStates(level1, { d30: 400_00n, d365: 3_100_00n })).toEqual([
      { window: 'transfer', limit: 1_000_00n, used: 0n, left: 0n },
      { window: '30d', limit: 1_000_00n, used: 400_00n, left: 600_00n },
      { window: '365d', limit: 3_000_00n, used: 3_100_00n, left: 0n },
    ]);
    expect(windowStates(DEFAULT_KYC_LIMITS[2], { d30: 0n, d365: 0n })[0]).toEqual({ window: 'transfer', limit: null, used: 0n, left: null });
  });

  it('one transfer may be at most what the tightest window leaves: 1,000 a transfer with 850 used in 30 days is 150', () => {
    expect(windowStates(level1, { d30: 850_00n, d365: 850_00n })).toEqual([
      { window: 'transfer', limit: 1_000_00n, used: 0n, left: 150_00n },
      { window: '30d', limit: 1_000_00n, used: 850_00n, left: 150_00n },
      { window: '365d', limit: 3_000_00n, used: 850_00n, left: 2_150_00n },
    ]);
    // The 365 days tighter than the 30 days; nothing used: the transfer's own limit.
    expect(windowStates(level1, { d30: 0n, d365: 2_900_00n })[0]!.left).toBe(100_00n);
    expect(windowStates(level1, { d30: 0n, d365: 0n })[0]!.left).toBe(1_000_00n);
    // Level 2 and 3: one transfer is bounded by the corridor, the rolling windows say what is left.
    expect(windowStates(DEFAULT_KYC_LIMITS[2], { d30: 6_950_00n, d365: 6_950_00n })[0]).toEqual({ window: 'transfer', limit: null, used: 0n, left: null });
    // A refusal names the window whose own limit is exceeded, with what one transfer may still be.
    expect(limitRefusal(level1, { d30: 850_00n, d365: 850_00n }, 150_01n)).toEqual({ window: '30d', left: 150_00n });
    expect(limitRefusal(level1, { d30: 850_00n, d365: 850_00n }, 1_000_01n)).toEqual({ window: 'transfer', left: 150_00n });
    expect(limitRefusal(level1, { d30: 850_00n, d365: 850_00n }, 150_00n)).toBeNull();
  });

  it('exactly the amount left passes; one cent more is refused with the first window it exceeds', () => {
    const used = { d30: 400_00n, d365: 400_00n };
    expect(limitRefusal(level1, used, 600_00n)).toBeNull();
    expect(limitRefusal(level1, used, 600_01n)).toEqual({ window: '30d', left: 600_00n });
    expect(limitRefusal(level1, { d30: 0n, d365: 0n }, 1_000_01n)).toEqual({ window: 'transfer', left: 1_000_00n });
    expect(limitRefusal(level1, { d30: 0n, d365: 2_500_00n }, 500_01n)).toEqual({ window: '365d', left: 500_00n });
  });

  it('warns from 80 % used', () => {
    expect(nearLimit(799_99n, 1_000_00n)).toBe(false);
    expect(nearLimit(800_00n, 1_000_00n)).toBe(true);
    expect(nearLimit(5n, null)).toBe(false);
  });
});

describe('date of birth', () => {
  const today = '2026-11-26';
  it('takes a real past day of someone at least 18', () => {
    expect(dateOfBirthRefusal('1990-04-12', today)).toBeNull();
    expect(dateOfBirthRefusal('2008-11-26', today)).toBeNull();
    expect(dateOfBirthRefusal('2008-11-27', today)).toBe('under_age');
    expect(dateOfBirthRefusal('2027-01-01', today)).toBe('future');
    expect(dateOfBirthRefusal('2026-11-26', today)).toBe('future');
    expect(dateOfBirthRefusal('1990-02-30', today)).toBe('invalid');
    expect(dateOfBirthRefusal('12/04/1990', today)).toBe('invalid');
    expect(dateOfBirthRefusal('1899-12-31', today)).toBe('invalid');
  });
  it('someone born on 29 February comes of age on 1 March in a common year', () => {
    expect(dateOfBirthRefusal('2008-02-29', '2026-02-28')).toBe('under_age');
    expect(dateOfBirthRefusal('2008-02-29', '2026-03-01')).toBeNull();
  });
});

describe('travel rule', () => {
  it('asks for the recipient\'s name from 1,000 EUR or USD, or 1,000 EUR\'s worth', () => {
    expect(recipientNameRequired(999_99, 'EUR', SEED_RATES)).toBe(false);
    expect(recipientNameRequired(1_000_00, 'EUR', SEED_RATES)).toBe(true);
    expect(recipientNameRequired(1_000_00, 'USD', SEED_RATES)).toBe(true);
    expect(recipientNameRequired(999_99, 'USD', SEED_RATES)).toBe(false);
    expect(recipientNameRequired(654_000, 'XAF', SEED_RATES)).toBe(false);
    expect(recipientNameRequired(655_000, 'XAF', SEED_RATES)).toBe(true);
  });
});

describe('what the screens tell before asking the server', () => {
  it('names the first window the amount would exceed', () => {
    const windows = [
      { window: 'transfer' as const, limit: '1000.00', left: '100.00' }, { window: '30d' as const, limit: '1000.00', left: '100.00' },
      { window: '365d' as const, limit: '3000.00', left: '2100.00' },
    ];
    expect(windowExceeded(windows, 100_00, 'EUR', SEED_RATES)).toBeNull();
    expect(windowExceeded(windows, 108_00, 'USD', SEED_RATES)).toBeNull();
    expect(windowExceeded(windows, 108_01, 'USD', SEED_RATES)?.window).toBe('30d');
    // Over one transfer's own limit: named as the server names it, with what one transfer may still be.
    expect(windowExceeded(windows, 1_000_01, 'EUR', SEED_RATES)).toMatchObject({ window: 'transfer', left: '100.00' });
    expect(windowExceeded([{ window: 'transfer' as const, limit: null, left: null }], 5_000_00, 'EUR', SEED_RATES)).toBeNull();
  });
});
