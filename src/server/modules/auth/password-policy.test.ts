import { describe, expect, it } from 'vitest';
import { commonPasswords, passwordProblem } from './password-policy.js';

describe('password policy', () => {
  it('ships at least 10,000 common passwords', () => {
    expect(commonPasswords().size).toBeGreaterThanOrEqual(10_000);
    expect(commonPasswords().has('password')).toBe(true);
  });

  it('refuses common passwords whatever their case', () => {
    expect(passwordProblem('password', 'ada@example.com')).toBe('common');
    expect(passwordProblem('Qwerty123', 'ada@example.com')).toBe('common');
    expect(passwordProblem('Analytical-engine-9', 'ada@example.com')).toBeNull();
  });

  it('refuses the e-mail name inside the password, ignoring very short names', () => {
    expect(passwordProblem('xx-Lovelace-1843', 'lovelace@example.com')).toBe('containsEmailName');
    expect(passwordProblem('ADA.LOVELACE!!', 'Ada.Lovelace@example.com')).toBe('containsEmailName');
    expect(passwordProblem('jo-is-here-2026', 'jo@example.com')).toBeNull();
  });
});
