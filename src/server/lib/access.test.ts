import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertDeclared } from './access.js';

describe('every API route declares its access, its answer and a summary', () => {
  const response = { 200: z.object({}) };
  const summary = 'Lists the things';
  it('refuses a route without access or with an unknown one', () => {
    expect(() => assertDeclared({ url: '/api/things', method: 'GET', schema: { response, summary } })).toThrow('GET /api/things declares no access');
    expect(() => assertDeclared({ url: '/api/things', method: 'GET', config: { access: 'everyone' as never }, schema: { response, summary } }))
      .toThrow('declares no access');
  });
  it('refuses a route without a response schema', () => {
    expect(() => assertDeclared({ url: '/api/things', method: 'POST', config: { access: 'user' }, schema: { summary } }))
      .toThrow('POST /api/things declares no response schema');
  });
  it('refuses a route without a summary, or a blank one', () => {
    expect(() => assertDeclared({ url: '/api/things', method: 'GET', config: { access: 'public' }, schema: { response } }))
      .toThrow('GET /api/things declares no summary');
    expect(() => assertDeclared({ url: '/api/things', method: 'GET', config: { access: 'public' }, schema: { response, summary: ' ' } }))
      .toThrow('declares no summary');
  });
  it('lets declared API routes, the API docs and pages through', () => {
    expect(() => assertDeclared({ url: '/api/things', method: 'GET', config: { access: 'public' }, schema: { response, summary } })).not.toThrow();
    expect(() => assertDeclared({ url: '/api/docs/static/*', method: 'GET' })).not.toThrow();
    expect(() => assertDeclared({ url: '/locales/*', method: 'GET' })).not.toThrow();
  });
});
