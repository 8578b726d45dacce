import { IdParamsSchema, dataOf } from '@core/api/common.js';
import { MrzResultSchema, MrzTypedSchema } from '@core/mrz.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { typeMrz } from './mrz.js';

// A reviewer types the machine-readable zone of a document whose photo could not be read
// (staff with their second factor, audited): checked as a read zone is (kyc/mrz.ts).

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/kyc/documents/:id/mrz', {
    config: { access: 'staff' },
    schema: {
      summary: 'Types the machine-readable zone of an identity document (2 or 3 lines), checked and compared with the profile; audited (staff)',
      params: IdParamsSchema, body: MrzTypedSchema, response: replies({ 200: dataOf(MrzResultSchema) }, ['own_case']),
    },
  }, async (request) => ({ data: await typeMrz(ctx, actorOf(request), request.params.id, request.body.lines) }));
};
export default routes;
