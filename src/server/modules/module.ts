import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';

/** Every API module is a Fastify plugin mounted under /api and given the app context. */
export type ApiModule = FastifyPluginAsyncZod<{ ctx: AppContext }>;
