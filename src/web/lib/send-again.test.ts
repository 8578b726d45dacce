import { describe, expect, it } from 'vitest';
import type { SavedRecipient } from '@core/api/recipients';
import { sendToSaved } from './send-again';

// "Send money" from a saved recipient opens the form on the way the sender paid when saving it.

const saved = (r: Partial<SavedRecipient>): SavedRecipient => ({
  id: '00000000-0000-4000-8000-000000000001', label: null, channel: 'airtel_gabon', recipient_name: 'Marie Nguema',
  recipient_email: null, recipient_phone: '+24177123456', iban: null, bic: null, paid_from: null,
  created_at: '2026-11-26T10:00:00.000Z', ...r,
});

const directionOf = (to: string) => new URLSearchParams(to.split('?')[1]).get('direction');

describe('sending to a saved recipient', () => {
  it('a recipient saved on a PayPal EUR transfer opens as PayPal EUR → Airtel Gabon', () => {
    const link = sendToSaved(saved({ paid_from: 'paypal_eur' }));
    expect(directionOf(link.to)).toBe('EUR_XAF');
    expect(link.state.recipient).toEqual({ recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' });
  });

  it('a recipient saved on a PayPal USD transfer, or by hand, opens as PayPal USD', () => {
    expect(directionOf(sendToSaved(saved({ paid_from: 'paypal_usd' })).to)).toBe('USD_XAF');
    expect(directionOf(sendToSaved(saved({ paid_from: null })).to)).toBe('USD_XAF');
  });

  it('a French bank account saved from PayPal EUR opens as PayPal EUR → bank France', () => {
    const link = sendToSaved(saved({ channel: 'bank_france', paid_from: 'paypal_eur', recipient_phone: null, iban: 'FR7630006000011234567890189' }));
    expect(directionOf(link.to)).toBe('EUR_EUR');
  });
});
