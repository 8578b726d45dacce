import { PublicConfigResponseSchema } from '@core/api/system.js';
import { replies } from '@server/lib/contract.js';
import { outboxReadable } from '../mail/service.js';
import type { ApiModule } from '../module.js';

/** What the browser may know about this deployment: never a secret, only what is switched on. */
const routes: ApiModule = async (app, { ctx }) => {
  const { config } = ctx;
  app.get('/config', {
    config: { access: 'public' },
    schema: { summary: 'What the browser may know about this deployment: the support address and which sign-ins and payments are switched on', response: replies({ 200: PublicConfigResponseSchema }) },
  }, async (request) => ({
    data: {
      support_email: config.SUPPORT_EMAIL,
      features: {
        google: Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET),
        facebook: Boolean(config.FACEBOOK_CLIENT_ID && config.FACEBOOK_CLIENT_SECRET),
        paypal: Boolean(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET),
      },
      dev_outbox: outboxReadable(config, request),
    },
  }));
};
export default routes;
