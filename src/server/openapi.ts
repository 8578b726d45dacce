import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The API's written contract: OpenAPI 3.1 generated from every route's zod schemas, served at
 * /api/openapi.json, and readable docs at /api/docs (Swagger UI, whose code is served only there).
 * Registered before the routes, so it sees each one as it is added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Money Transfer API',
        version: '1',
        description: 'Errors answer `{ error, code, fields? }`: `error` in the caller\'s language, `code` stable. '
          + 'Amounts are exact decimals written as text. Signed-in calls send `Authorization: Bearer <session token>`. '
          + 'A staff (admin or manager) session opened without its second factor is refused by every operation '
          + '(`403 mfa_enrollment_required` or `mfa_required`) except GET /api/profiles/me, PUT /api/profiles/me/language, '
          + 'two-step setup and enable, and signing out.',
      },
      components: { securitySchemes: { session: { type: 'http', scheme: 'bearer' } } },
    },
    // Each operation also states who may call it: the route's declared access.
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const access = input.route.config?.access;
      const schema = { ...out.schema, 'x-access': access ?? 'undeclared' } as typeof out.schema;
      if (access && access !== 'public') Object.assign(schema, { security: [{ session: [] }] });
      return { ...out, schema };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { url: '/api/openapi.json' } });
  app.get('/api/openapi.json', {
    config: { access: 'public' },
    schema: { hide: true, response: { 200: z.record(z.string(), z.unknown()) } },
  }, async () => app.swagger() as unknown as Record<string, unknown>);
}
