import { z } from 'zod';
import { AuditFilterSchema, AuditPageSchema, AuditQuerySchema } from '@core/api/audit.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { auditCsv, auditPage } from './service.js';

// The audit log, the admin's alone: a page at a time with filters, or the filtered log as CSV.

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/audit', {
    config: { access: 'admin' },
    schema: { summary: 'The staff actions log, filtered, newest first, a page at a time (admin)', querystring: AuditQuerySchema, response: replies({ 200: AuditPageSchema }) },
  }, async (request) => auditPage(ctx.db, request.query));

  app.get('/audit/export.csv', {
    config: { access: 'admin' },
    schema: { summary: 'The staff actions log as CSV, with the same filters (admin)', querystring: AuditFilterSchema, response: replies({ 200: z.any().describe('CSV (RFC 4180), one line per audit row, newest first') }) },
  }, async (request, reply) => {
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="audit-${day}.csv"`)
      .send(await auditCsv(ctx.db, actorOf(request), request.query));
  });
};
export default routes;
