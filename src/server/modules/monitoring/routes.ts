import { z } from 'zod';
import { IdParamsSchema } from '@core/api/common.js';
import {
  CaseTransitionSchema, MonitoringCaseResponseSchema, MonitoringCasesQuerySchema, MonitoringCasesResponseSchema, MonitoringRuleParamsSchema,
  MonitoringRuleResponseSchema, MonitoringRulesResponseSchema, MonitoringRuleUpdateSchema,
} from '@core/api/monitoring.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { caseDetail, listCases, transitionCase } from './cases.js';
import { caseReport } from './report.js';
import { reportPdf } from './report-pdf.js';
import { listRules, updateRule } from './settings.js';

// Transaction monitoring (docs/rules/monitoring.md): the rules' settings (admin), the cases and
// their reports (staff with the second factor, as every staff route).

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/monitoring/rules', {
    config: { access: 'admin' },
    schema: { summary: 'Every monitoring rule with its thresholds, whether it is on and whether it holds, its fields and defaults (admin)', response: replies({ 200: MonitoringRulesResponseSchema }) },
  }, async () => ({ data: await listRules(ctx.db) }));

  app.put('/monitoring/rules/:rule', {
    config: { access: 'admin' },
    schema: { summary: 'Edits a monitoring rule: its thresholds, on or off, whether a hit holds the transfer (admin, audited)', params: MonitoringRuleParamsSchema, body: MonitoringRuleUpdateSchema, response: replies({ 200: MonitoringRuleResponseSchema }) },
  }, async (request) => ({ data: await updateRule(ctx.db, actorOf(request), request.params.rule, request.body) }));

  app.get('/monitoring/cases', {
    config: { access: 'staff' },
    schema: { summary: 'Monitoring cases, newest first, of one status or all (staff)', querystring: MonitoringCasesQuerySchema, response: replies({ 200: MonitoringCasesResponseSchema }) },
  }, async (request) => ({ data: await listCases(ctx.db, request.query.status) }));

  app.get('/monitoring/cases/:id', {
    config: { access: 'staff' },
    schema: { summary: 'A monitoring case: its sender, alerts with their evidence, transfers, recipients and steps (staff)', params: IdParamsSchema, response: replies({ 200: MonitoringCaseResponseSchema }) },
  }, async (request) => ({ data: await caseDetail(ctx.db, request.params.id) }));

  app.post('/monitoring/cases/:id/transition', {
    config: { access: 'staff' },
    schema: { summary: 'Moves a monitoring case to investigating, or closes it with an outcome; closing releases its holds (staff, audited)', params: IdParamsSchema, body: CaseTransitionSchema, response: replies({ 200: MonitoringCaseResponseSchema }, ['case_closed', 'case_outcome_required', 'case_transition_invalid', 'own_case']) },
  }, async (request) => ({ data: await transitionCase(ctx.db, actorOf(request), request.params.id, request.body) }));

  app.get('/monitoring/cases/:id/report.json', {
    config: { access: 'staff' },
    schema: { summary: 'The suspicious-transaction report of a case closed as reported, as JSON (docs/rules/str-report.schema.json; staff, audited)', params: IdParamsSchema, response: replies({ 200: z.any().describe('The report, valid against docs/rules/str-report.schema.json') }, ['report_unavailable']) },
  }, async (request, reply) => {
    const report = await caseReport(ctx, actorOf(request), request.params.id, 'json');
    return reply.header('Content-Type', 'application/json; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="str-report-${report.report_id}.json"`)
      .send(JSON.stringify(report, null, 2));
  });

  app.get('/monitoring/cases/:id/report.pdf', {
    config: { access: 'staff' },
    schema: { summary: 'The suspicious-transaction report of a case closed as reported, as a readable PDF (staff, audited)', params: IdParamsSchema, response: replies({ 200: z.any().describe('PDF') }, ['report_unavailable']) },
  }, async (request, reply) => {
    const report = await caseReport(ctx, actorOf(request), request.params.id, 'pdf');
    return reply.header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `attachment; filename="str-report-${report.report_id}.pdf"`)
      .send(reportPdf(report, request.lang));
  });
};
export default routes;
