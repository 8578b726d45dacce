import { LedgerBalancesResponseSchema, LedgerEntriesQuerySchema, LedgerEntriesResponseSchema } from '@core/api/ledger.js';
import { replies } from '@server/lib/contract.js';
import type { ApiModule } from '../module.js';
import { balances, transferEntries } from './service.js';

// The books, for the admin: balances per account and currency, and one transfer's entries.

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/ledger/balances', {
    config: { access: 'admin' },
    schema: { summary: 'Every ledger account\'s balance per currency, and the totals that show the books balance (admin)', response: replies({ 200: LedgerBalancesResponseSchema }) },
  }, async () => ({ data: await balances(ctx.db) }));

  app.get('/ledger/entries', {
    config: { access: 'admin' },
    schema: { summary: 'One transfer\'s ledger entries with their lines (admin)', querystring: LedgerEntriesQuerySchema, response: replies({ 200: LedgerEntriesResponseSchema }) },
  }, async (request) => ({ data: await transferEntries(ctx.db, request.query.transfer_id) }));
};
export default routes;
