import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { apiModules } from '../modules/index.js';
import { registerOpenApi } from '../openapi.js';

/** The API: its written contract, then every module's routes under /api, which the contract sees as they are added. */
export const api: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  await registerOpenApi(app);
  await app.register(async (routes) => {
    for (const mod of apiModules) await routes.register(mod, { ctx });
  }, { prefix: '/api' });
};
