import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, type ErrorCode } from '@core/errors.js';
import { PROJECT_ROOT } from '@server/paths.js';

// Beyond the length the shared schema checks (docs/rules/accounts.md), a new password is refused when it is one of
// the most common passwords or contains the account's e-mail name. Both are judged here, on the
// server, since the list is too big to ship to every browser.

const LIST_FILE = path.join(PROJECT_ROOT, 'src/server/modules/auth/common-passwords.txt');

/** E-mail names shorter than this ("jo@…") are ignored: they would refuse too many passwords. */
const MIN_EMAIL_NAME_LENGTH = 3;

let common: Set<string> | null = null;

/** The list, read once on first use (lower case, one a line, '#' lines are its header). */
export function commonPasswords(): Set<string> {
  common ??= new Set(readFileSync(LIST_FILE, 'utf8').split('\n').filter((line) => line && !line.startsWith('#')));
  return common;
}

export type PasswordProblem = 'common' | 'containsEmailName';

/** Why a new password is refused for an account with this e-mail, or null when it is acceptable. */
export function passwordProblem(password: string, email: string): PasswordProblem | null {
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'common';
  const name = email.slice(0, Math.max(0, email.lastIndexOf('@'))).toLowerCase();
  if (name.length >= MIN_EMAIL_NAME_LENGTH && lower.includes(name)) return 'containsEmailName';
  return null;
}

const CODES: Record<PasswordProblem, ErrorCode> = {
  common: 'password_common',
  containsEmailName: 'password_contains_email_name',
};

/** A 400 naming the password field when the new password breaks these rules; nothing is changed before. */
export function assertAcceptablePassword(password: string, email: string, field = 'password'): void {
  const problem = passwordProblem(password, email);
  if (problem) throw AppError.onField(CODES[problem], field);
}
