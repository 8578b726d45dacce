import adminRoutes from './admin/routes.js';
import approvalsRoutes from './approvals/routes.js';
import auditRoutes from './audit/routes.js';
import bankRoutes from './bank/routes.js';
import mfaRoutes from './auth/mfa-routes.js';
import authRoutes from './auth/routes.js';
import feesRoutes from './fees/routes.js';
import geoRoutes from './geo/routes.js';
import healthRoutes from './health/routes.js';
import jobsRoutes from './jobs/routes.js';
import kycMrzRoutes from './kyc/mrz-routes.js';
import kycRoutes from './kyc/routes.js';
import ledgerRoutes from './ledger/routes.js';
import mailRoutes from './mail/routes.js';
import monitoringRoutes from './monitoring/routes.js';
import type { ApiModule } from './module.js';
import operatorsRoutes from './operators/routes.js';
import paymentsRoutes from './payments/routes.js';
import privacyRoutes from './privacy/routes.js';
import profilesRoutes from './profiles/routes.js';
import publicConfigRoutes from './public-config/routes.js';
import quotesRoutes from './quotes/routes.js';
import railsRoutes from './rails/routes.js';
import payoutExceptionRoutes from './rails/exception-routes.js';
import operatorStatementRoutes from './rails/statement-routes.js';
import ratesRoutes from './rates/routes.js';
import reconciliationRoutes from './reconciliation/routes.js';
import recipientsRoutes from './recipients/routes.js';
import screeningRoutes from './screening/routes.js';
import trackingRoutes from './tracking/routes.js';
import transfersRoutes from './transfers/routes.js';

export const apiModules: ApiModule[] = [
  healthRoutes, publicConfigRoutes, feesRoutes, quotesRoutes, ratesRoutes, authRoutes, mfaRoutes, profilesRoutes, geoRoutes,
  paymentsRoutes, transfersRoutes, recipientsRoutes, adminRoutes, jobsRoutes, mailRoutes, ledgerRoutes, auditRoutes,
  reconciliationRoutes, operatorsRoutes, trackingRoutes, approvalsRoutes, kycRoutes, privacyRoutes, screeningRoutes,
  monitoringRoutes, kycMrzRoutes, railsRoutes, payoutExceptionRoutes, operatorStatementRoutes, bankRoutes,
];
