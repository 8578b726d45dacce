import { isMobileRail, MOBILE_RAIL_IDS, type RailId } from '@core/rails.js';
import type { Config } from '@server/config.js';
import { AirtelOperator } from './airtel.js';
import { MtnOperator } from './mtn.js';
import type { MobileMoneyOperator } from './operator.js';

// Each rail's operator client, built from the configuration once per process (its token cache
// lives with it); null when the business has not set that operator's credentials.

/** The longest wait on an operator's answer: past it a payout's outcome is unknown and asked about. */
const OPERATOR_TIMEOUT_MS = 15_000;

/** The variables each operator needs set before its rails can be switched on. */
const AIRTEL_VARIABLES = ['AIRTEL_CLIENT_ID', 'AIRTEL_CLIENT_SECRET', 'AIRTEL_PIN', 'AIRTEL_PUBLIC_KEY'] as const;
const MTN_VARIABLES = ['MTN_MOMO_API_USER', 'MTN_MOMO_API_KEY', 'MTN_MOMO_DISBURSEMENT_KEY'] as const;
/** The business's bank account the SEPA files debit (docs/rules/bank-rail.md). */
const BANK_VARIABLES = ['BANK_IBAN', 'BANK_BIC', 'BANK_ACCOUNT_NAME'] as const;
/** PayPal's REST credentials, the same that take senders' PayPal payments (docs/rules/payout-rails.md#paypal-payouts). */
const PAYPAL_VARIABLES = ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET'] as const;

const RAIL_VARIABLES: Record<RailId, readonly (keyof Config)[]> = {
  airtel_gabon: AIRTEL_VARIABLES, airtel_rwanda: AIRTEL_VARIABLES, mtn_rwanda: MTN_VARIABLES,
  paypal_payouts: PAYPAL_VARIABLES, sepa_france: BANK_VARIABLES,
};

/** The names (never the values) of the rail's variables that are not set. */
export function missingVariables(config: Config, rail: RailId): string[] {
  const names = RAIL_VARIABLES[rail];
  return names.filter((name) => !config[name]);
}

export function railConfigured(config: Config, rail: RailId): boolean {
  return missingVariables(config, rail).length === 0;
}

/** Some operator's credentials are set: the float balances are worth reading. */
export function anyOperatorConfigured(config: Config): boolean {
  return MOBILE_RAIL_IDS.some((rail) => railConfigured(config, rail));
}

function build(config: Config, rail: RailId): MobileMoneyOperator | null {
  // The bank's payouts leave in files (bank module); PayPal's through its own client (paypal-payouts.ts).
  if (!isMobileRail(rail) || !railConfigured(config, rail)) return null;
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
