import type { RailId } from '@core/rails.js';
import type { Config } from '@server/config.js';
import { AirtelOperator } from './airtel.js';
import { MtnOperator } from './mtn.js';
import type { MobileMoneyOperator } from './operator.js';

// Each rail's operator client, built from the configuration once per process (its token cache
// lives with it); null when the business has not set that operator's credentials.

/** The longest wait on an operator's answer: past it a payout's outcome is unknown and asked about. */
const OPERATOR_TIMEOUT_MS = 15_000;

export function airtelConfigured(config: Config): boolean {
  return !!(config.AIRTEL_CLIENT_ID && config.AIRTEL_CLIENT_SECRET && config.AIRTEL_PIN && config.AIRTEL_PUBLIC_KEY);
}

export function mtnConfigured(config: Config): boolean {
  return !!(config.MTN_MOMO_API_USER && config.MTN_MOMO_API_KEY && config.MTN_MOMO_DISBURSEMENT_KEY);
}

/** The business's bank account the SEPA files debit (docs/rules/bank-rail.md). */
export function bankConfigured(config: Config): boolean {
  return !!(config.BANK_IBAN && config.BANK_BIC && config.BANK_ACCOUNT_NAME);
}

export function railConfigured(config: Config, rail: RailId): boolean {
  return rail === 'sepa_france' ? bankConfigured(config) : rail === 'mtn_rwanda' ? mtnConfigured(config) : airtelConfigured(config);
}

function build(config: Config, rail: RailId): MobileMoneyOperator | null {
  // The bank rail has no operator to call: its payouts leave in files (bank module).
  if (rail === 'sepa_france' || !railConfigured(config, rail)) return null;
  if (rail === 'mtn_rwanda') {
    return new MtnOperator({
      baseUrl: config.MTN_MOMO_BASE_URL, targetEnvironment: config.MTN_MOMO_TARGET_ENVIRONMENT,
      apiUser: config.MTN_MOMO_API_USER!, apiKey: config.MTN_MOMO_API_KEY!,
      disbursementKey: config.MTN_MOMO_DISBURSEMENT_KEY!, collectionKey: config.MTN_MOMO_COLLECTION_KEY ?? '',
      callbackUrl: `${config.publicUrl}/api/rails/mtn/callback`, timeoutMs: OPERATOR_TIMEOUT_MS,
    });
  }
  return new AirtelOperator({
    baseUrl: config.AIRTEL_BASE_URL, clientId: config.AIRTEL_CLIENT_ID!, clientSecret: config.AIRTEL_CLIENT_SECRET!,
    pin: config.AIRTEL_PIN!, publicKeyPem: config.AIRTEL_PUBLIC_KEY!, country: rail === 'airtel_gabon' ? 'GA' : 'RW', timeoutMs: OPERATOR_TIMEOUT_MS,
  });
}

const clients = new WeakMap<Config, Map<RailId, MobileMoneyOperator | null>>();

/** The rail's operator client, or null when its credentials are not set. */
export function railOperator(config: Config, rail: RailId): MobileMoneyOperator | null {
  let built = clients.get(config);
  if (!built) clients.set(config, (built = new Map()));
  if (!built.has(rail)) built.set(rail, build(config, rail));
  return built.get(rail)!;
}
