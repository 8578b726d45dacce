import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The operations' groups: the first segment of their path after /api, each described for the
 * reader of the docs and of a generated client. A route under a segment not listed here fails the
 * document's generation (tests/api/openapi.test.ts), so every group is explained.
 */
const TAGS: Record<string, string> = {
  health: 'Whether the process, its database, Redis and its job worker can serve: for load balancers and supervisors.',
  config: 'What the web app may know about this deployment before sign-in: the support address and what is switched on.',
  fees: 'Fee tiers per corridor: read by anyone, edited by an admin.',
  rates: 'Exchange rates per corridor: read by anyone, edited by an admin.',
  quotes: 'What a transfer would cost and deliver, before it is made.',
  auth: 'Sign-up with an e-mailed code, sign-in (password, Google, Facebook, second factor), sign-out and password reset.',
  profiles: 'The caller\'s own account, and the admin\'s list of accounts and their roles.',
  geo: 'Countries, states and cities for the address forms.',
  payments: 'Starting a transfer, and paying it through PayPal.',
  transactions: 'A sender\'s transfers as history, and their counts by status.',
  'transfer-requests': 'Transfers: a sender\'s own or the staff queue; status, money recorded, approval, notes and messages, proofs, the tracking link, the CSV export.',
  recipients: 'A sender\'s saved recipients.',
  rails: 'Payout rails: their state for staff, the admin\'s switch and balance warning, the operators\' statements imported per rail, and the operators\' callbacks.',
  'operator-statements': 'An operator\'s statement imported on the reconciliation board, set against our payout attempts (admin).',
  'payout-exceptions': 'Payouts and collections through an operator that need a person: name checks to decide, attempts still unknown, failed or sent back, money received twice (staff).',
  'collection-attempts': 'Staff\'s steps on a payment asked from a sender\'s wallet that needs a person: ask the operator again, record the money received twice as given back.',
  'payout-name-holds': 'Staff\'s decisions on a name check that stopped a payout: pay anyway (four-eyes at the approval threshold) or ask the sender to correct the recipient.',
  'approval-thresholds': 'The amount per currency from which a transfer waits for a second staff member\'s approval.',
  kyc: 'Know your sender: the sender\'s identity level and what is used and left of its limits; the limits per level.',
  track: 'A transfer\'s progress, for whoever holds its tracking link.',
  operators: 'Mobile-money operators and the number ranges that name them.',
  admin: 'The back office: dashboard counts, daily volume, background jobs, operator number ranges, second-factor resets.',
  ledger: 'The double-entry ledger: balances per account and the entries (admin).',
  audit: 'Every staff action with its actor and before and after, and its CSV export (admin).',
  bank: 'The bank rail: SEPA payout files (pain.001.001.09) for the business\'s bank, and its statements (camt.053, camt.054) read back (docs/rules/bank-rail.md).',
  reconciliation: 'Bank and mobile-money statements imported and matched against the ledger (admin).',
  screening: 'Sanctions screening: the lists\' imported versions and settings, and the search staff use to check a name by hand.',
  monitoring: 'Transaction monitoring: the rules\' thresholds (admin), the cases of alerts per sender, their steps and their suspicious-transaction reports.',
  dev: 'Development only: the e-mails the server would have sent, read on this machine.',
};

/** A route's group: the first segment of its path after /api. */
function tagOf(url: string): string {
  const tag = url.split('/')[2] ?? '';
  if (!(tag in TAGS)) throw new Error(`${url}: no description for the operations under /api/${tag} (src/server/openapi.ts)`);
  return tag;
}

/**
 * A route's operationId, the name a generated client gives its call: the method then each path
 * segment in PascalCase, a parameter as `By<Name>` (GET /api/transfer-requests/:id is
 * getTransferRequestsById). Method and path are unique, so the name is; letters only, so it is
 * safe in a URL.
 */
function operationIdOf(method: string, url: string): string {
  const words = url.split('/').slice(2).flatMap((segment) => {
    const param = segment.startsWith(':');
    const parts = segment.replace(/^:/, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
    return param ? ['By', ...parts] : parts;
  });
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/**
 * The API's written contract: OpenAPI 3.1 generated from every route's zod schemas, served at
 * /api/openapi.json, and readable docs at /api/docs (Swagger UI, whose code is served only there).
 * Registered before the routes, so it sees each one as it is added. Each route declares its
 * summary; its group, operationId and security are derived here from its path and declared access.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'GabRemit API',
        version: '1',
        description: 'Errors answer `{ error, code, fields? }`: `error` in the caller\'s language, `code` stable. '
          + 'Amounts are exact decimals written as text. Signed-in calls send `Authorization: Bearer <session token>`. '
          + 'A staff (admin or manager) session opened without its second factor is refused by every operation '
          + '(`403 mfa_enrollment_required` or `mfa_required`) except GET /api/profiles/me, PUT /api/profiles/me/language, '
          + 'two-step setup and enable, and signing out.',
      },
      // Relative: the API is on the server that served this document, whatever name it was reached by.
      servers: [{ url: '/', description: 'The server that serves this document' }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: { session: { type: 'http', scheme: 'bearer' } } },
    },
    // Each operation also states who may call it: the route's declared access, and the session a
    // signed-in one needs (none for a public one, said explicitly).
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      if (out.schema.hide) return out;
      const access = input.route.config?.access;
      const schema = {
        ...out.schema,
        operationId: operationIdOf(String(input.route.method), input.url),
        tags: [tagOf(input.url)],
        'x-access': access ?? 'undeclared',
        security: access === 'public' ? [] : [{ session: [] }],
      } as typeof out.schema;
      return { ...out, schema };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { url: '/api/openapi.json' } });
  app.get('/api/openapi.json', {
    config: { access: 'public' },
    schema: { hide: true, summary: 'This OpenAPI document', response: { 200: z.record(z.string(), z.unknown()) } },
  }, async () => app.swagger() as unknown as Record<string, unknown>);
}
