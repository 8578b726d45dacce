import { describe, expect, it } from 'vitest';
import { amountToMinor, sanitizeAmountInput } from './amount-input';

describe('calculator amount input', () => {
  it('keeps digits and one decimal separator while typing', () => {
    expect(sanitizeAmountInput('100', 'USD')).toBe('100');
    expect(sanitizeAmountInput('100.', 'USD')).toBe('100.');
    expect(sanitizeAmountInput('100,5', 'EUR')).toBe('100,5');
    expect(sanitizeAmountInput('', 'USD')).toBe('');
  });

  it('resets a non-numeric amount to 0', () => {
    expect(sanitizeAmountInput('abc', 'USD')).toBe('0');
    expect(sanitizeAmountInput('-5', 'USD')).toBe('0');
    expect(sanitizeAmountInput('1e5', 'USD')).toBe('0');
    expect(sanitizeAmountInput('1.2.3', 'USD')).toBe('0');
  });

  it('cuts decimals the currency does not have', () => {
    expect(sanitizeAmountInput('10.555', 'USD')).toBe('10.55');
    expect(sanitizeAmountInput('5000.5', 'XAF')).toBe('5000');
    expect(sanitizeAmountInput('.5', 'RWF')).toBe('0');
  });

  it('converts to exact minor units, 0 when empty', () => {
    expect(amountToMinor('100', 'USD')).toBe(10000);
    expect(amountToMinor('100,5', 'EUR')).toBe(10050);
    expect(amountToMinor('61000', 'XAF')).toBe(61000);
    expect(amountToMinor('', 'USD')).toBe(0);
    expect(amountToMinor('.', 'USD')).toBe(0);
  });
});
