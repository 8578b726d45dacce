import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The written contract: every API route is in /api/openapi.json with the access it requires and
// a schema for its success and its errors. Answers are checked against those schemas as they are
// sent (the serializer refuses a mismatch), so every API test validates against the document too.

let t: TestApp;
let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; tags?: { name: string; description?: string }[]; servers?: { url: string }[] };
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>; 'x-access'?: string; security?: unknown[];
  operationId?: string; summary?: string; tags?: string[];
}
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

  it('names, sums up and groups every operation, and says which session each one needs', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(80);
    const declaredTags = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
    const problems = ops.flatMap(({ route, op }) => {
      const missing: string[] = [];
      if (!/^[A-Za-z]+$/.test(op.operationId ?? '')) missing.push('operationId');
      if (!op.summary?.trim()) missing.push('summary');
      if (op.tags?.length !== 1 || !declaredTags.get(op.tags[0]!)) missing.push('a described tag');
      // A public operation says so: no session at all.
      if (op['x-access'] === 'public' ? op.security?.length !== 0 : JSON.stringify(op.security) !== '[{"session":[]}]') missing.push('security');
      return missing.length ? [`${route}: ${missing.join(', ')}`] : [];
    });
    expect(problems).toEqual([]);
    expect(new Set(ops.map(({ op }) => op.operationId)).size).toBe(ops.length);
    const byRoute = Object.fromEntries(ops.map(({ route, op }) => [route, op]));
    expect(byRoute['GET /api/transfer-requests/{id}']).toMatchObject({ operationId: 'getTransferRequestsById', tags: ['transfer-requests'] });
    expect(byRoute['POST /api/quotes']).toMatchObject({ operationId: 'postQuotes', security: [] });
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('lists the codes each operation can answer, its own and those its access and input imply', () => {
    const codesOf = (route: string, status: '4XX' | '5XX') => {
      const op = operations().find((o) => o.route === route)?.op;
      const schema = (op?.responses?.[status] ?? op?.responses?.[status.toLowerCase()])?.content?.['application/json']?.schema as
        { properties?: { code?: { enum?: string[] } } } | undefined;
      return schema?.properties?.code?.enum;
    };
    // Every operation names its codes: none answers a code it does not list.
    expect(operations().filter(({ route }) => !codesOf(route, '4XX')?.length || !codesOf(route, '5XX')?.length).map((o) => o.route)).toEqual([]);
    expect(codesOf('POST /api/transfer-requests/{id}/approve', '4XX')).toEqual(expect.arrayContaining([
      'already_approved', 'approval_not_needed', 'own_transfer', 'compliance_hold', 'unauthenticated', 'forbidden', 'mfa_required', 'not_found', 'bad_request',
    ]));
    expect(codesOf('POST /api/transfer-requests/{id}/approve', '4XX')).not.toContain('quote_expired');
    expect(codesOf('POST /api/payments/initiate', '4XX')).toEqual(expect.arrayContaining(['sign_in_required', 'quote_expired', 'validation_failed']));
    expect(codesOf('POST /api/payments/initiate', '5XX')).toEqual(['internal_error', 'paypal_unavailable']);
    // A public operation with no input answers none of the refusals of access or input.
    expect(codesOf('GET /api/health/live', '4XX')).toEqual(['bad_request']);
    expect(codesOf('GET /api/track/{token}', '4XX')).toEqual(['bad_request', 'not_found', 'rate_limited']);
  });

  it('passes Redocly CLI\'s recommended ruleset without an error', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      // Offline: no usage report, no check for a newer version. Errors exit 1 with the report on stdout.
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const { stdout } = await promisify(execFile)('node_modules/.bin/redocly', ['lint', '--extends=recommended', '--format=json', file], { env })
        .catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
      // A property a schema requires but does not define is only a warning there; a client needs it defined.
      const errors = report.problems.filter((p) => p.severity === 'error' || p.ruleId === 'no-required-schema-properties-undefined')
        .map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves readable docs at /api/docs', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
  });
});
