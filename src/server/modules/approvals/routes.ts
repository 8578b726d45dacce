import { z } from 'zod';
import {
  ApprovalThresholdListSchema, ApprovalThresholdParamsSchema, ApprovalThresholdResponseSchema, ApprovalThresholdUpdateSchema,
} from '@core/api/approvals.js';
import { IdParamsSchema } from '@core/api/common.js';
import { StaffRequestResponseSchema } from '@core/api/transfers.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { approve, setThreshold, thresholds } from './service.js';

// Four-eyes (D12): the thresholds (staff read them, the admin edits them) and the approval.

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/approval-thresholds', {
    config: { access: 'staff' },
    schema: { response: replies({ 200: ApprovalThresholdListSchema }) },
  }, async () => ({ data: await thresholds(ctx.db) }));

  app.put('/approval-thresholds/:currency', {
    config: { access: 'admin' },
    schema: { params: ApprovalThresholdParamsSchema, body: ApprovalThresholdUpdateSchema, response: replies({ 200: ApprovalThresholdResponseSchema }) },
  }, async (request) => ({
    data: await setThreshold(ctx.db, actorOf(request), request.params.currency, request.body.amount, request.lang),
  }));

  app.post('/transfer-requests/:id/approve', {
    config: { access: 'staff' },
    schema: {
      params: IdParamsSchema,
      body: z.object({}).optional().describe('Nothing: the approval is the caller\'s'),
      response: replies({ 200: StaffRequestResponseSchema }),
    },
  }, async (request) => ({ data: await approve(ctx, actorOf(request), request.params.id) }));
};
export default routes;
