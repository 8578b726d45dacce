import {
  OperatorStatementImportQuerySchema, OperatorStatementListSchema, OperatorStatementParamsSchema, OperatorStatementResultResponseSchema,
  StatementRailParamsSchema,
} from '@core/api/operator-statements.js';
import { AppError } from '@core/errors.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { readStatementFile } from '@server/lib/uploads.js';
import { decodeSpreadsheetText } from '@server/lib/windows-1252.js';
import type { ApiModule } from '../module.js';
import { importOperatorStatement, listOperatorStatements, statementResult } from './statements.js';

// Operators' statements on the reconciliation board, the admin's
// (docs/rules/payout-rails.md#operator-statements): an export imported for a rail, and what it
// does not agree on with our payout attempts.

/** An export is text: at most 10,000 rows, well under 2 MB. */
const MAX_STATEMENT_BYTES = 2_000_000;
const tooLarge = () => new AppError('upload_too_large', { vars: { max: MAX_STATEMENT_BYTES / 1_000_000 } });

const routes: ApiModule = async (app, { ctx }) => {
  // A file sent as the request body itself (scripts, curl); browsers send a multipart file.
  // Bytes, not text: the file's encoding is read from them, and the same bytes are the same file.
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'buffer', bodyLimit: MAX_STATEMENT_BYTES }, (_request, body, done) => done(null, body));

  app.get('/rails/:id/statements', {
    config: { access: 'admin' },
    schema: { summary: "A rail's imported operator statements, newest first (admin)", params: StatementRailParamsSchema, response: replies({ 200: OperatorStatementListSchema }) },
  }, async (request) => ({ data: await listOperatorStatements(ctx.db, request.params.id) }));

  app.post('/rails/:id/statements', {
    config: { access: 'admin' },
    schema: {
      summary: "Imports an operator's transaction export (CSV) for a rail and lists what differs from our payouts; the same file again changes nothing (admin, audited)",
      params: StatementRailParamsSchema,
      querystring: OperatorStatementImportQuerySchema,
      consumes: ['multipart/form-data', 'text/csv'],
      response: replies({ 200: OperatorStatementResultResponseSchema, 201: OperatorStatementResultResponseSchema }, ['csv_invalid', 'file_missing', 'upload_incomplete', 'upload_too_large']),
    },
  }, async (request, reply) => {
    const { bytes, filename } = await readStatementFile(request, MAX_STATEMENT_BYTES, tooLarge, request.query.filename);
    const result = await importOperatorStatement(ctx.db, actorOf(request), request.params.id, { bytes, text: decodeSpreadsheetText(bytes), filename });
    return reply.status(result.already_imported ? 200 : 201).send({ data: result });
  });

  app.get('/operator-statements/:id', {
    config: { access: 'admin' },
    schema: {
      summary: "An operator statement set against our payout attempts as they stand now: matched rows and every difference (admin)",
      params: OperatorStatementParamsSchema, response: replies({ 200: OperatorStatementResultResponseSchema }),
    },
  }, async (request) => ({ data: { ...await statementResult(ctx.db, request.params.id), already_imported: true } }));
};
export default routes;
