import { AccountClosedResponseSchema, MyDataExportSchema } from '@core/api/privacy.js';
import { AccountCloseSchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { closeMyAccount, exportMyData } from './service.js';

// A sender's own data (docs/rules/your-data.md). Neither route is open to a staff session
// without its second factor: a staff member's export lists the audit entries of their work on
// other people's transfers, and a password alone must not reach those.

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/profiles/me/export', {
    config: { access: 'user' },
    schema: { summary: 'Everything held about the caller, as a JSON file to download (audited)', response: replies({ 200: MyDataExportSchema }, ['not_found']) },
  }, async (request, reply) => {
    const data = await exportMyData(ctx.db, requireUser(request), actorOf(request));
    reply.header('content-disposition', `attachment; filename="my-data-${data.exported_at.slice(0, 10)}.json"`);
    reply.header('cache-control', 'no-store');
    return data;
  });

  app.post('/profiles/me/close', {
    config: { access: 'user' },
    schema: {
      summary: 'Closes the caller\'s account with the owner\'s proof: sessions end, what no law requires is erased (409 while a transfer is unfinished or money is owed)',
      body: AccountCloseSchema, response: replies({ 200: AccountClosedResponseSchema }, ['close_money_owed', 'close_open_transfers', 'close_staff_account', 'current_password_required', 'current_password_wrong', 'not_found', 'rate_limited', 'reauth_code_exhausted', 'reauth_code_sent', 'reauth_otp_invalid']),
    },
  }, async (request, reply) => closeMyAccount(ctx, reply, requireUser(request), request.body, actorOf(request), request.lang));
};
export default routes;
