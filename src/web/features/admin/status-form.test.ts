import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_STATUS_NOTE, rejectFormSchema, statusFormSchema } from './status-form';

type Values = z.input<typeof statusFormSchema>;

/** What the dialog would send, or the message under each field that is refused. */
function check(values: Partial<Values>) {
  const result = statusFormSchema.safeParse({ status: null, note: '', ...values });
  if (result.success) return { sent: result.data };
  return { errors: Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message])) };
}

describe('the status dialog form', () => {
  it('sends the status with its note, trimmed', () => {
    expect(check({ status: 'completed', note: '  Paid out by Airtel Money ' })).toEqual({
      sent: { status: 'completed', note: 'Paid out by Airtel Money' },
    });
  });

  it('sends no note when none was typed', () => {
    expect(check({ status: 'processing', note: '   ' })).toEqual({ sent: { status: 'processing' } });
    expect(check({ status: 'rejected', note: 'Proof unreadable' })).toEqual({ sent: { status: 'rejected', note: 'Proof unreadable' } });
  });

  it('holds the note to the API limit, on its field', () => {
    expect(MAX_STATUS_NOTE).toBe(1000);
    expect(check({ status: 'completed', note: 'x'.repeat(1001) })).toEqual({ errors: { note: 'validation.statusNoteTooLong' } });
    expect(check({ status: 'rejected', note: 'x'.repeat(1000) })).toEqual({ sent: { status: 'rejected', note: 'x'.repeat(1000) } });
  });

  it('sends nothing until a button names the status', () => {
    expect(check({ note: 'typed, then Enter' })).toEqual({ errors: { status: 'validation.statusInvalid' } });
  });
});

describe('the reject dialog form', () => {
  const reject = (note: string) => {
    const result = rejectFormSchema.safeParse({ note });
    return result.success ? { sent: result.data } : { errors: result.error.issues.map((i) => [i.path.join('.'), i.message]) };
  };

  it('sends the rejection with its reason, trimmed', () => {
    expect(reject('  The proof shows another amount. ')).toEqual({ sent: { status: 'rejected', note: 'The proof shows another amount.' } });
  });

  it('asks for the reason the sender will read, held to the API limit', () => {
    expect(reject('   ')).toEqual({ errors: [['note', 'admin.validation.rejectReasonRequired']] });
    expect(reject('x'.repeat(1001))).toEqual({ errors: [['note', 'validation.statusNoteTooLong']] });
  });
});
