import type { MultipartFile } from '@fastify/multipart';
import { z } from 'zod';
import { IdParamsSchema } from '@core/api/common.js';
import {
  BankFileCancelSchema, BankFileCreatedSchema, BankFileListSchema, BankFileResponseSchema, BankStatementEntriesSchema, BankStatementListSchema,
  BankStatementResultSchema, UnmatchedBankLinesQuerySchema, UnmatchedBankLinesSchema,
} from '@core/api/bank.js';
import { dataOf } from '@core/api/common.js';
import { AppError } from '@core/errors.js';
import { hasControlCharacter } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { requireBoundary, uploadFailure } from '@server/lib/uploads.js';
import type { ApiModule } from '../module.js';
import { cancelBankFile, createBankFile, downloadBankFile, importBankStatement, listBankFiles, listBankStatements, statementEntries, unmatchedBankLines } from './service.js';
import { MAX_STATEMENT_MB } from './statements.js';

// The bank rail (docs/rules/bank-rail.md): the admin's payout files, staff's statement imports.

const tooLarge = () => new AppError('upload_too_large', { vars: { max: MAX_STATEMENT_MB } });

/** The part's bytes as they arrive; refused when the parser cut it at the limit or it never ended. */
async function* piecesOf(part: MultipartFile): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of part.file) yield chunk as Buffer;
  } catch (error) {
    throw uploadFailure(error, tooLarge);
  }
  if (part.file.truncated) throw tooLarge();
  if (!part.file.readableEnded) throw new AppError('upload_incomplete');
}

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/bank/files', {
    config: { access: 'admin' },
    schema: {
      summary: 'Gathers every payout to a French account whose controls have cleared into one SEPA credit-transfer file (pain.001.001.09): its id, count and control sum (admin, audited)',
      response: replies({ 201: dataOf(BankFileCreatedSchema) }, ['bank_nothing_ready', 'bank_rail_off', 'rail_not_configured']),
    },
  }, async (request, reply) => reply.status(201).send({ data: await createBankFile(ctx, actorOf(request)) }));

  app.get('/bank/files', {
    config: { access: 'admin' },
    schema: { summary: 'The newest bank files, with their payouts settled, returned and waiting (admin)', response: replies({ 200: BankFileListSchema }) },
  }, async () => ({ data: await listBankFiles(ctx) }));

  app.get('/bank/files/:id', {
    config: { access: 'admin' },
    schema: {
      summary: 'A bank file as written, to upload to the bank (application/xml; each download audited) (admin)',
      params: IdParamsSchema, response: replies({ 200: z.any().describe('The pain.001.001.09 XML as written') }),
    },
  }, async (request, reply) => {
    const file = await downloadBankFile(ctx, actorOf(request), request.params.id);
    if (!file) throw new AppError('not_found');
    return reply.type('application/xml; charset=utf-8').header('content-disposition', `attachment; filename="${file.msg_id}.xml"`).send(file.xml);
  });

  app.post('/bank/files/:id/cancel', {
    config: { access: 'admin' },
    schema: {
      summary: 'Cancels a bank file the bank never executed, with a reason: its transfers go into the next file (admin, audited)',
      params: IdParamsSchema, body: BankFileCancelSchema, response: replies({ 200: BankFileResponseSchema }, ['bank_file_closed']),
    },
  }, async (request) => {
    const file = await cancelBankFile(ctx, actorOf(request), request.params.id, request.body.reason);
    if (!file) throw new AppError('not_found');
    return { data: file };
  });

  app.post('/bank/statements', {
    config: { access: 'staff' },
    schema: {
      summary: `Imports a bank statement (camt.053 or camt.054, multipart part "file", ${MAX_STATEMENT_MB} MB at most): settles and returns payouts, records senders' payments, lists what matched nothing (staff, audited)`,
      consumes: ['multipart/form-data'],
      response: replies({ 201: BankStatementResultSchema }, ['bank_statement_invalid', 'file_missing', 'upload_incomplete', 'upload_too_large', 'validation_failed']),
    },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw new AppError('file_missing');
    requireBoundary(request);
    const part = await request.file({ limits: { fileSize: MAX_STATEMENT_MB * 1_000_000 } }).catch((error: unknown) => { throw uploadFailure(error, tooLarge); });
    if (!part) throw new AppError('file_missing');
    if (hasControlCharacter(part.filename)) throw new AppError('validation_failed', { fields: { filename: 'validation.controlCharacters' } });
    return reply.status(201).send({ data: await importBankStatement(ctx, actorOf(request), piecesOf(part), part.filename || null) });
  });

  app.get('/bank/statements', {
    config: { access: 'staff' },
    schema: { summary: 'The newest bank statements imported, with what their lines did (staff)', response: replies({ 200: BankStatementListSchema }) },
  }, async () => ({ data: await listBankStatements(ctx) }));

  app.get('/bank/statements/unmatched', {
    config: { access: 'staff' },
    schema: {
      summary: "The newest bank statement lines that matched nothing (booked lines of imported camt.053 and camt.054), for the reconciliation board (staff)",
      querystring: UnmatchedBankLinesQuerySchema, response: replies({ 200: UnmatchedBankLinesSchema }),
    },
  }, async (request) => ({ data: await unmatchedBankLines(ctx, request.query.limit) }));

  app.get('/bank/statements/:id/entries', {
    config: { access: 'staff' },
    schema: { summary: "A bank statement's lines and what each did (staff)", params: IdParamsSchema, response: replies({ 200: BankStatementEntriesSchema }) },
  }, async (request) => ({ data: await statementEntries(ctx, request.params.id) }));
};
export default routes;
