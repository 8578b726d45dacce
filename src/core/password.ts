// Password strength meter (docs/rules/accounts.md#passwords).

export type PasswordScore = 0 | 1 | 2 | 3 | 4 | 5;
export type PasswordStrength = 'weak' | 'fair' | 'strong';

/** +1 each: ≥ 6 characters, ≥ 10 characters, an uppercase letter, a digit, a non-alphanumeric character. */
export function passwordScore(pw: string): PasswordScore {
  let score = 0;
  if (pw.length >= 6) score += 1;
  if (pw.length >= 10) score += 1;
  if (/[A-Z]/.test(pw)) score += 1;
  if (/[0-9]/.test(pw)) score += 1;
  if (/[^A-Za-z0-9]/.test(pw)) score += 1;
  return score as PasswordScore;
}

/** Weak below 2 (red), fair at 2 or 3 (yellow), strong at 4 or more (green). */
export function passwordStrength(score: number): PasswordStrength {
  if (score < 2) return 'weak';
  if (score < 4) return 'fair';
  return 'strong';
}
