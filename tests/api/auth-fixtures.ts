// Account test data: registrations as the register page sends them, unique addresses, transfer rows.
import { randomBytes } from 'node:crypto';
import { transferRequests } from '@server/db/schema.js';
import type { TestApp } from '../support/test-app.js';

export const uniqueEmail = (tag = 'new') => `${tag}-${randomBytes(5).toString('hex')}@example.test`;

/** A client address of its own for a test, so address-based limits of other tests do not meet it. */
export const uniqueAddress = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;

export function registration(overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail(), password: 'Secret-pass-1', full_name: 'Awa Ndong', phone: '+241 06 12 34 56',
    address: '12 rue de la Paix', state: 'Estuaire Province', city: 'Libreville', country: 'GA',
    ...overrides,
  };
}

/** A transfer request row of a profile in a given status (for the profile screen's counts). */
export async function insertTransfer(t: TestApp, profileId: string, status: 'pending' | 'processing' | 'completed' | 'rejected' | 'cancelled') {
  await t.database.db.insert(transferRequests).values({
    reference: `TR-${randomBytes(4).toString('hex').toUpperCase()}`, profile_id: profileId, direction: 'USD_XAF',
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100.00', currency: 'USD', fee: '4.50',
    total: '104.50', rate: '610', payout_amount: '61000.00', payout_currency: 'XAF', status,
  });
}
