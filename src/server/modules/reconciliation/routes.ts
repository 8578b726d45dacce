import {
  FrozenMoneyResponseSchema, MatchResultResponseSchema, ReconciliationParamsSchema, ReconciliationSummariesResponseSchema, ReconciliationViewQuerySchema,
  ReconciliationViewResponseSchema, StatementBalanceSchema, StatementImportQuerySchema, StatementResultResponseSchema,
} from '@core/api/reconciliation.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { readStatementFile } from '@server/lib/uploads.js';
import { decodeSpreadsheetText } from '@server/lib/windows-1252.js';
import { AppError } from '@core/errors.js';
import type { ApiModule } from '../module.js';
import { accountView, frozenMoney, importStatement, rematch, recordStatementBalance, summaries } from './service.js';

// Reconciliation, the admin's alone (docs/rules/money-states.md#reconciliation): each
// provider account's books against its statement, a statement's balance or lines, and matching.

/** A statement file is text: at most 10,000 lines, well under 2 MB. */
const MAX_STATEMENT_BYTES = 2_000_000;
const tooLarge = () => new AppError('upload_too_large', { vars: { max: MAX_STATEMENT_BYTES / 1_000_000 } });

const routes: ApiModule = async (app, { ctx }) => {
  // A statement sent as the request body itself (scripts, curl); browsers send a multipart file.
  // Bytes, not text: the file's encoding is read from them (decodeSpreadsheetText).
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'buffer', bodyLimit: MAX_STATEMENT_BYTES }, (_request, body, done) => done(null, body));

  app.get('/reconciliation', {
    config: { access: 'admin' },
    schema: { summary: 'Each provider account\'s books against its latest statement balance (admin)', response: replies({ 200: ReconciliationSummariesResponseSchema }) },
  }, async () => ({ data: await summaries(ctx.db) }));

  app.get('/reconciliation/frozen', {
    config: { access: 'admin' },
    schema: { summary: 'Money frozen by compliance close-outs: each transfer\'s received payment and the totals per currency (admin)', response: replies({ 200: FrozenMoneyResponseSchema }) },
  }, async () => ({ data: await frozenMoney(ctx.db) }));

  app.get('/reconciliation/:account', {
    config: { access: 'admin' },
    schema: { summary: 'One provider account in full: its summary and newest statement and book lines (admin)', params: ReconciliationParamsSchema, querystring: ReconciliationViewQuerySchema, response: replies({ 200: ReconciliationViewResponseSchema }) },
  }, async (request) => ({ data: await accountView(ctx.db, request.params.account, request.query.limit) }));

  app.post('/reconciliation/:account/statements', {
    config: { access: 'admin' },
    schema: { summary: 'Records a statement\'s closing balance for a provider account (admin)', params: ReconciliationParamsSchema, body: StatementBalanceSchema, response: replies({ 201: StatementResultResponseSchema }) },
  }, async (request, reply) => reply.status(201).send({
    data: await recordStatementBalance(ctx.db, actorOf(request), request.params.account, request.body),
  }));

  app.post('/reconciliation/:account/imports', {
    config: { access: 'admin' },
    schema: {
      summary: 'Imports a bank or mobile-money statement CSV and matches its lines (admin)',
      params: ReconciliationParamsSchema,
      querystring: StatementImportQuerySchema,
      consumes: ['multipart/form-data', 'text/csv'],
      response: replies({ 201: StatementResultResponseSchema }, ['csv_invalid', 'file_missing', 'upload_incomplete', 'upload_too_large']),
    },
  }, async (request, reply) => {
    const actor = actorOf(request);
    const { bytes, filename } = await readStatementFile(request, MAX_STATEMENT_BYTES, tooLarge, request.query.filename);
    const file = { text: decodeSpreadsheetText(bytes), filename };
    return reply.status(201).send({ data: await importStatement(ctx.db, actor, request.params.account, file, request.query) });
  });

  app.post('/reconciliation/:account/match', {
    config: { access: 'admin' },
    schema: { summary: 'Matches the account\'s unmatched statement lines against its book lines again (admin)', params: ReconciliationParamsSchema, response: replies({ 200: MatchResultResponseSchema }) },
  }, async (request) => ({ data: { matched: await rematch(ctx.db, actorOf(request), request.params.account) } }));
};
export default routes;
