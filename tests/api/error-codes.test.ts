import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, ERRORS, wireCode, type ErrorCode } from '@core/errors.js';
import { t as translate } from '@server/i18n.js';
import { replies } from '@server/lib/contract.js';
import { errorHandler } from '@server/plugins/error-handler.js';
import { routeDeclarations } from '@server/plugins/route-declarations.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Refusals are thrown as codes of core/errors.ts and written in the caller's language by the one
// error handler: each answer's code is a listed one, its status the list's, its message the
// listed key's in the language asked for. (A thrown code outside the list does not compile:
// src/core/errors.test.ts.)

let t: TestApp;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  sender = await createUser(t);
});
afterAll(async () => { await t.close(); });

const initiate = (amount: string, lang: string) => t.request({
  method: 'POST', url: '/api/payments/initiate', token: sender.token, headers: { 'accept-language': lang },
  payload: {
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount, currency: 'USD',
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 12 34 56' },
  },
});

interface Case { name: string; listed: ErrorCode; answer: (lang: string) => ReturnType<TestApp['request']> }

const CASES: Case[] = [
  { name: 'an unknown transfer', listed: 'not_found', answer: (lang) => t.request({ method: 'GET', url: `/api/transfer-requests/${randomUUID()}`, token: sender.token, headers: { 'accept-language': lang } }) },
  { name: 'the list signed out', listed: 'unauthenticated', answer: (lang) => t.request({ method: 'GET', url: '/api/transfer-requests', headers: { 'accept-language': lang } }) },
  { name: 'a transfer started signed out', listed: 'sign_in_required', answer: (lang) => t.request({ method: 'POST', url: '/api/payments/initiate', payload: {}, headers: { 'accept-language': lang } }) },
  { name: 'an unknown tracking link', listed: 'tracking_link_not_found', answer: (lang) => t.request({ method: 'GET', url: `/api/track/${'x'.repeat(24)}`, headers: { 'accept-language': lang } }) },
  { name: 'a staff route for a sender', listed: 'forbidden', answer: (lang) => t.request({ method: 'GET', url: '/api/admin/stats', token: sender.token, headers: { 'accept-language': lang } }) },
];

describe('refusals answer listed codes in the caller\'s language', () => {
  it.each(CASES.flatMap((c) => (['en', 'fr'] as const).map((lang) => ({ ...c, lang }))))('$name ($lang): $listed', async ({ listed, answer, lang }) => {
    const res = await answer(lang);
    const body = res.json();
    expect(res.statusCode).toBe(ERRORS[listed].status);
    expect(body.code).toBe(wireCode(listed));
    expect(body.error).toBe(translate(lang, ERRORS[listed].key));
  });

  it('writes a refused field\'s message, and the amount in it, the way the caller\'s language does', async () => {
    const en = (await initiate('4.99', 'en')).json();
    expect(en).toMatchObject({ code: 'amount_below_min', error: 'The minimum for this corridor is $5.00.' });
    expect(en.fields).toEqual({ amount: en.error });
    const fr = (await initiate('4.99', 'fr')).json();
    expect(fr.code).toBe('amount_below_min');
    expect(fr.error).toMatch(/5,00\s\$/);
    expect(fr.fields).toEqual({ amount: fr.error });
  });

  it('answers a schema\'s refusal as validation_failed with its first field\'s message', async () => {
    const res = await initiate('not an amount', 'fr');
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(Object.values(body.fields)[0]).toBe(body.error);
  });
});

describe('each route answers only the codes it declares', () => {
  // The app's own plugins around one route declaring one refusal of its own.
  async function appWithOneRoute(logs: string[]) {
    const logger = pino({ level: 'error' }, { write: (line: string) => { logs.push(line); } });
    const app = Fastify({ loggerInstance: logger }).withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorateRequest('lang', { getter: () => 'en' as const });
    await app.register(routeDeclarations);
    await app.register(errorHandler);
    app.get('/api/tiers', {
      config: { access: 'public' },
      schema: { summary: 'A route for this test', querystring: z.object({ refuse: z.string() }), response: replies({ 200: z.object({}) }, ['fee_tier_overlap']) },
    }, async (request) => { throw new AppError(request.query.refuse as ErrorCode); });
    return app;
  }

  it('answers a declared code, and fails with a logged 500 on one it did not declare', async () => {
    const logs: string[] = [];
    const app = await appWithOneRoute(logs);
    const declared = await app.inject({ method: 'GET', url: '/api/tiers?refuse=fee_tier_overlap' });
    expect(declared.statusCode).toBe(400);
    expect(declared.json()).toMatchObject({ code: 'fee_tier_overlap' });
    // Implied by its input's schema: a query refused is validation_failed.
    expect((await app.inject({ method: 'GET', url: '/api/tiers' })).json()).toMatchObject({ code: 'validation_failed' });
    expect(logs).toEqual([]);

    const undeclared = await app.inject({ method: 'GET', url: '/api/tiers?refuse=fee_tier_gap' });
    expect(undeclared.statusCode).toBe(500);
    expect(undeclared.json().code).not.toBe('fee_tier_gap');
    expect(logs.join('\n')).toContain('fee_tier_gap');
    await app.close();
  });

  it('stops the server at start when a route declares its responses without replies()', async () => {
    const app = Fastify();
    await app.register(routeDeclarations);
    expect(() => app.get('/api/bare', { config: { access: 'public' }, schema: { summary: 'Bare', response: { 200: {} } } }, async () => ({})))
      .toThrow(/GET \/api\/bare declares its responses without replies/);
  });
});
