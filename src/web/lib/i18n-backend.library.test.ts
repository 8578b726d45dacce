import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReadCallback } from 'i18next';
import HttpApi from 'i18next-http-backend';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpBackend } from './i18n-backend';

// The hand-made translation backend stands in for i18next-http-backend (decision 005: 4 KB on
// the home page). Both read the same files from a real HTTP server here; they must hand i18next
// the same data, the same failure and the same retry decision.

const FILES: Record<string, { status: number; body: string }> = {
  '/locales/fr/common.json': { status: 200, body: JSON.stringify({ hello: 'bonjour', nested: { n: '1' } }) },
  '/locales/fr/missing.json': { status: 404, body: 'not found' },
  '/locales/fr/broken.json': { status: 500, body: 'oops' },
  '/locales/fr/busy.json': { status: 503, body: 'busy' },
  '/locales/fr/garbled.json': { status: 200, body: '{ not json' },
  '/locales/fr/forbidden.json': { status: 403, body: 'no' },
};

const nodeFetch = globalThis.fetch;
let server: Server;
let origin: string;
/** The page our same-origin paths resolve against, as a browser resolves them. */
let pageOrigin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const file = FILES[req.url ?? ''] ?? { status: 404, body: '' };
    res.writeHead(file.status, { 'Content-Type': 'application/json' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pageOrigin = origin;
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => nodeFetch(new URL(url, pageOrigin), init));
});
afterAll(() => {
  vi.unstubAllGlobals();
  server.close();
});

type Outcome = { failed: boolean; retry: unknown; data: unknown };
const settle = (resolve: (o: Outcome) => void): ReadCallback => (err, data) =>
  resolve(err ? { failed: true, retry: data === true, data: null } : { failed: false, retry: false, data });

function ours(ns: string): Promise<Outcome> {
  return new Promise((resolve) => HttpBackend.read('fr', ns, settle(resolve)));
}

function library(ns: string, base = origin): Promise<Outcome> {
  const backend = new HttpApi(undefined, { loadPath: `${base}/locales/{{lng}}/{{ns}}.json` });
  return new Promise((resolve) => backend.read('fr', ns, settle(resolve)));
}

describe('HttpBackend against i18next-http-backend', () => {
  it.each(['common', 'missing', 'broken', 'busy', 'garbled', 'forbidden'])('%s.json: same data, failure and retry', async (ns) => {
    expect(await ours(ns)).toEqual(await library(ns));
  });

  it('asks for a retry when the server cannot be reached, as the library does', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    closed.close();
    pageOrigin = deadOrigin;
    try {
      expect(await ours('common')).toEqual(await library('common', deadOrigin));
    } finally {
      pageOrigin = origin;
    }
  });
});
