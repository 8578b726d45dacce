import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The written contract: every API route is in /api/openapi.json with the access it requires and
// a schema for its success and its errors. Answers are checked against those schemas as they are
// sent (the serializer refuses a mismatch), so every API test validates against the document too.

let t: TestApp;
let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
interface Operation { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>; 'x-access'?: string; security?: unknown }
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
});
afterAll(async () => { await t.close(); });

const operations = () => Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })));

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1 and lists the API', () => {
    expect(doc.openapi).toBe('3.1.0');
    const routes = operations().map((o) => o.route);
    for (const route of ['POST /api/quotes', 'POST /api/payments/initiate', 'GET /api/transfer-requests/{id}', 'PATCH /api/fees/{id}']) {
      expect(routes).toContain(route);
    }
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('gives every operation its access, a success schema and the error schema', () => {
    const missing = operations().flatMap(({ route, op }) => {
      const problems: string[] = [];
      if (!['public', 'user', 'staff', 'admin'].includes(op['x-access'] ?? '')) problems.push('access');
      const responses = op.responses ?? {};
      // A success is a 2xx with its body's schema, or the redirect a sign-in or a PayPal return answers.
      const success = Object.entries(responses).find(([code]) => /^[23]/.test(code));
      if (!success || (!success[1].content && !/^(204|3\d\d)$/.test(success[0]))) problems.push('success schema');
      if (!responses['4XX'] && !responses['4xx']) problems.push('error schema');
      if (op['x-access'] && op['x-access'] !== 'public' && !op.security) problems.push('security');
      return problems.length ? [`${route}: ${problems.join(', ')}`] : [];
    });
    expect(missing).toEqual([]);
  });

  it('serves readable docs at /api/docs', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
  });
});
