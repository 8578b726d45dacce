import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256 } from './tokens.js';

// RFC 6238 codes (docs/rules/accounts.md#two-step-sign-in): SHA-1, 6 digits, 30-second steps, the
// defaults every authenticator app reads from an otpauth:// address; one step of drift either way.

const TOTP_PERIOD_S = 30;
const TOTP_DRIFT_STEPS = 1;
const RECOVERY_CODE_COUNT = 10;
/** Recovery codes' letters and digits: none that read like another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const totp = (secret: string, label = '', issuer = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });

/** A new secret: 160 random bits (RFC 4226's recommended length), in base32 as apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// address an app scans from the QR code. */
export const otpauthUrl = (secret: string, account: string, issuer: string): string => totp(secret, account, issuer).toString();

/**
 * The time step a code belongs to, within one step of `now` either way, or null. The caller
 * accepts it only if it is later than the last step used (so no code works twice).
 */
export function matchStep(secret: string, code: string, now: number): number | null {
  const generator = totp(secret);
  const delta = generator.validate({ token: code, timestamp: now, window: TOTP_DRIFT_STEPS });
  return delta === null ? null : generator.counter({ timestamp: now }) + delta;
}

/** Ten fresh recovery codes, as shown ("abcde-fgh23"). */
export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => one().replace(/^(.{5})/, '$1-'));
}

/** How a recovery code is kept: hashed, bound to its account, dash and case ignored. */
export const recoveryCodeHash = (profileId: string, code: string) => sha256(`recovery:${profileId}:${code.replace(/[-\s]/g, '').toLowerCase()}`);
