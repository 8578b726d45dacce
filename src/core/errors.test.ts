import { describe, expect, it } from 'vitest';
import enAdmin from '../locales/en/admin.json';
import enAuth from '../locales/en/auth.json';
import enErrors from '../locales/en/errors.json';
import enTransfer from '../locales/en/transfer.json';
import enValidation from '../locales/en/validation.json';
import frAdmin from '../locales/fr/admin.json';
import frAuth from '../locales/fr/auth.json';
import frErrors from '../locales/fr/errors.json';
import frTransfer from '../locales/fr/transfer.json';
import frValidation from '../locales/fr/validation.json';
import { approvalError, unapprovedError } from './approval.js';
import { AppError, ERRORS, wireCode, type ErrorCode } from './errors.js';

const catalogs = {
  en: { admin: enAdmin, auth: enAuth, errors: enErrors, transfer: enTransfer, validation: enValidation },
  fr: { admin: frAdmin, auth: frAuth, errors: frErrors, transfer: frTransfer, validation: frValidation },
};

/** The message at "namespace.key.path", or its plural forms' ("…_one", "…_other"). */
function message(lang: keyof typeof catalogs, key: string): unknown {
  const [ns, ...path] = key.split('.');
  let node: unknown = (catalogs[lang] as Record<string, unknown>)[ns!];
  for (const part of path.slice(0, -1)) node = (node as Record<string, unknown> | undefined)?.[part];
  const leaf = path.at(-1)!;
  const parent = node as Record<string, unknown> | undefined;
  return parent?.[leaf] ?? parent?.[`${leaf}_other`];
}

const codes = Object.keys(ERRORS) as ErrorCode[];

describe('the closed list of error codes', () => {
  it.each(codes)('%s has an HTTP error status and a message in English and French', (code) => {
    const { status, key } = ERRORS[code];
    expect(status >= 400 && status < 600, `${code}: ${status}`).toBe(true);
    expect(typeof message('en', key), `${code}: en ${key}`).toBe('string');
    expect(typeof message('fr', key), `${code}: fr ${key}`).toBe('string');
  });

  it('answers codes in snake case, a code shared by two entries only where one names it as its wire code', () => {
    for (const code of codes) expect(wireCode(code)).toMatch(/^[a-z]+(_[a-z]+)*$/);
    const wires = codes.filter((c) => !('wire' in ERRORS[c])).map(wireCode);
    expect(new Set(wires).size).toBe(wires.length);
    for (const code of codes.filter((c) => 'wire' in ERRORS[c])) expect(codes).toContain(wireCode(code));
    expect(wireCode('reauth_otp_invalid')).toBe('otp_invalid');
    expect(ERRORS.reauth_otp_invalid.status).toBe(403);
  });

  it('has core\'s refusals name listed codes, with the statuses their rules give them', () => {
    const own = approvalError({ profile_id: 'a', status: 'pending', processed_by: null, payout_sent_by: null, approved_by: null }, 'a', true)!;
    expect(ERRORS[own].status).toBe(403);
    expect(ERRORS[unapprovedError({ approved_by: null }, true, 'payout')!].status).toBe(409);
  });

  it('builds an AppError only from a listed code', () => {
    const error = AppError.onField('amount_below_min', 'amount', { limit: '1.00 USD' });
    expect(error.status).toBe(400);
    expect(error.details.fields).toEqual({ amount: 'validation.amountBelowMin' });
    // @ts-expect-error: a code outside the list does not compile (nor run)
    expect(() => new AppError('no_such_code')).toThrow();
  });
});
