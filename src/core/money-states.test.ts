import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, TRANSFER_STATUSES } from './status.js';
import { awaitsPayment } from './money-states.js';

describe('when the sender is told how to pay', () => {
  it('only while the transfer is open and nothing was received or authorized', () => {
    expect(awaitsPayment({ status: 'pending', payment_status: 'awaiting' })).toBe(true);
    // Staff may take a transfer paid by hand into processing before recording the payment.
    expect(awaitsPayment({ status: 'processing', payment_status: 'awaiting' })).toBe(true);
  });

  it('never for a rejected, cancelled or completed transfer, whatever its payment', () => {
    for (const status of ['rejected', 'cancelled', 'completed'] as const) {
      for (const payment_status of PAYMENT_STATUSES) expect(awaitsPayment({ status, payment_status }), `${status} ${payment_status}`).toBe(false);
    }
  });

  it('never once the money is in, authorized at PayPal, released or owed back', () => {
    for (const status of TRANSFER_STATUSES) {
      for (const payment_status of PAYMENT_STATUSES.filter((p) => p !== 'awaiting')) expect(awaitsPayment({ status, payment_status })).toBe(false);
    }
  });
});
