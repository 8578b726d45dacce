import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_PAYOUT_REFERENCE, MAX_STATUS_NOTE, statusFormSchema } from './status-form';

type Values = z.input<ReturnType<typeof statusFormSchema>>;

/** What the dialog would send, or the message under each field that is refused. */
function check(destination: string, values: Partial<Values>) {
  const result = statusFormSchema(destination).safeParse({ status: null, note: '', provider_reference: '', ...values });
  if (result.success) return { sent: result.data };
  return { errors: Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message])) };
}

describe('the status dialog form', () => {
  it('completes a mobile-money payout with its reference and note, trimmed', () => {
    expect(check('airtel_gabon', { status: 'completed', note: '  Paid out by Airtel Money ', provider_reference: ' AIRTEL-778899 ' })).toEqual({
      sent: { status: 'completed', note: 'Paid out by Airtel Money', provider_reference: 'AIRTEL-778899' },
    });
  });

  it('asks for the payout reference when completing a mobile-money or bank payout', () => {
    for (const destination of ['airtel_gabon', 'mobile_rwanda', 'bank_france']) {
      expect(check(destination, { status: 'completed', provider_reference: '   ' })).toEqual({
        errors: { provider_reference: 'admin.validation.payoutReferenceRequired' },
      });
    }
  });

  it('completes a PayPal payout without a reference', () => {
    expect(check('paypal_usd', { status: 'completed' })).toEqual({ sent: { status: 'completed' } });
  });

  it('processes or rejects without a reference, and never sends one it was not asked for', () => {
    expect(check('airtel_gabon', { status: 'processing', provider_reference: 'typed then not used' })).toEqual({ sent: { status: 'processing' } });
    expect(check('bank_france', { status: 'rejected', note: 'Proof unreadable' })).toEqual({ sent: { status: 'rejected', note: 'Proof unreadable' } });
  });

  it('holds the note and the reference to the API limits, on their fields', () => {
    expect(MAX_STATUS_NOTE).toBe(1000);
    expect(MAX_PAYOUT_REFERENCE).toBe(120);
    expect(check('airtel_gabon', { status: 'completed', note: 'x'.repeat(1001), provider_reference: 'R'.repeat(121) })).toEqual({
      errors: { note: 'validation.statusNoteTooLong', provider_reference: 'validation.referenceTooLong' },
    });
    expect(check('airtel_gabon', { status: 'rejected', note: 'x'.repeat(1000) })).toEqual({ sent: { status: 'rejected', note: 'x'.repeat(1000) } });
  });

  it('sends nothing until a button names the status', () => {
    expect(check('airtel_gabon', { note: 'typed, then Enter' })).toEqual({ errors: { status: 'validation.statusInvalid' } });
  });
});
