import {
  ApprovalThresholdListSchema, ApprovalThresholdParamsSchema, ApprovalThresholdResponseSchema, ApprovalThresholdUpdateSchema,
} from '@core/api/approvals.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { setThreshold, thresholds } from './service.js';

// Four-eyes thresholds: staff read them, the admin edits them (the approval: transfers/routes.ts).

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/approval-thresholds', {
    config: { access: 'staff' },
    schema: { summary: 'The approval threshold per source currency (staff)', response: replies({ 200: ApprovalThresholdListSchema }) },
  }, async () => ({ data: await thresholds(ctx.db) }));

  app.put('/approval-thresholds/:currency', {
    config: { access: 'admin' },
    schema: { summary: 'Sets a currency\'s approval threshold (admin)', params: ApprovalThresholdParamsSchema, body: ApprovalThresholdUpdateSchema, response: replies({ 200: ApprovalThresholdResponseSchema }) },
  }, async (request) => ({
    data: await setThreshold(ctx.db, actorOf(request), request.params.currency, request.body.amount),
  }));
};
export default routes;
