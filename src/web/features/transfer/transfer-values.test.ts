import { describe, expect, it } from 'vitest';
import { DEFAULT_OPERATOR_PREFIXES } from '@core/operators';
import { transferFormSchema } from './transfer-schema';
import { initialValues, phoneRefusal, toPayload, type ScreenRules, type TransferValues } from './transfer-values';

const rules: ScreenRules = {
  locale: 'en',
  amountError: (error, currency) => `${error} ${currency}`,
  phoneError: (destination, phone) => (phoneRefusal(DEFAULT_OPERATOR_PREFIXES, destination, phone, 'en') ? `not ${destination}'s operators` : null),
  limitError: () => null,
};
const issues = (values: TransferValues, r = rules) =>
  transferFormSchema(r).safeParse(values).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];
const gabon = { ...initialValues('USD_XAF', '150.00') };

describe('the transfer form', () => {
  it('starts from the calculator\'s corridor and amount, else the defaults', () => {
    expect(initialValues('USD_XAF', '150.00')).toMatchObject({ source: 'paypal_usd', destination: 'airtel_gabon', amount: '150.00' });
    expect(initialValues('nowhere', null).source).toBe(initialValues().source);
  });

  it('reads the amount as typed in the page\'s language and refuses what it cannot read, before anything else', () => {
    const french = { ...rules, locale: 'fr' };
    expect(toPayload({ ...gabon, amount: '1 250,75 $' }, 'fr').amount).toBe('1250.75');
    expect(toPayload({ ...gabon, amount: '1,250.75' }, 'en').amount).toBe('1250.75');
    expect(issues({ ...gabon, amount: '1,234' }, french)).toEqual([['amount', 'tooManyDecimals USD']]);
    expect(issues({ ...initialValues('XAF_USD', '100.01') }, french)).toEqual([['amount', 'noDecimals XAF']]);
    expect(issues({ ...gabon, amount: '' })).toEqual([['amount', 'empty USD']]);
  });

  it('reports the shared schema\'s first failing rule on its field', () => {
    expect(issues(gabon)).toEqual([['recipient_phone', 'validation.recipientPhoneRequired']]);
    expect(issues({ ...gabon, amount: '0' })).toEqual([['amount', 'validation.amountInvalid']]);
  });

  it('then the phone against the destination\'s operators, then the corridor\'s limits', () => {
    expect(issues({ ...gabon, recipient_phone: '06 12 34 56' })).toEqual([['recipient_phone', 'not airtel_gabon\'s operators']]);
    expect(issues({ ...gabon, recipient_phone: '077 12 34 5' })).toEqual([['recipient_phone', 'not airtel_gabon\'s operators']]);
    const limited = { ...rules, limitError: () => 'Maximum is $2,000.00' };
    expect(issues({ ...gabon, recipient_phone: '077 12 34 56' }, limited)).toEqual([['amount', 'Maximum is $2,000.00']]);
  });

  it('names the accepted operators when a payout number is refused, and leaves it to the server before the ranges load', () => {
    expect(phoneRefusal(DEFAULT_OPERATOR_PREFIXES, 'mobile_rwanda', '+250 71 123 4567', 'fr'))
      .toEqual({ operators: 'Airtel Rwanda ou MTN Rwanda', numbers: '+250 72…, 73…, 78… ou 79…' });
    expect(phoneRefusal(DEFAULT_OPERATOR_PREFIXES, 'mobile_rwanda', '0788 123 456', 'en')).toBeNull();
    expect(phoneRefusal(undefined, 'airtel_gabon', '06 12 34 56', 'en')).toBeNull();
  });

  it('gives the request body: the destination\'s own fields, the phone as typed (the server stores it in E.164)', () => {
    const values = { ...gabon, recipient_phone: '077 12 34 56', recipient_name: 'Marie Nguema', recipient_email: 'ignored@example.com', note: ' School fees ' };
    expect(transferFormSchema(rules).parse(values)).toEqual(toPayload(values, 'en'));
    expect(toPayload(values, 'en')).toEqual({
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '150.00', currency: 'USD',
      destination_details: { recipient_phone: '077 12 34 56', recipient_name: 'Marie Nguema' },
      source_details: { note: 'School fees' }, save_recipient: false,
    });
  });

  it('shows a bank account holder\'s error on the name typed, and an unsupported pair on the destination', () => {
    expect(issues(initialValues('USD_EUR', '100'))).toEqual([['recipient_name', 'validation.accountHolderRequired']]);
    expect(issues({ ...gabon, destination: 'paypal_eur' })).toEqual([['destination', 'validation.pairUnsupported']]);
  });
});
