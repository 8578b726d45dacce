import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ASSET_CACHE_CONTROL, WEB_FILE_OPTIONS, isKnownPageRoute, prerenderedPages } from '@server/page-routes.js';

describe('prerendered public pages', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pages-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const lang of ['en', 'fr']) {
    mkdirSync(path.join(dir, lang));
    for (const name of ['index', 'fees', 'transfer']) writeFileSync(path.join(dir, lang, `${name}.html`), '<html></html>');
  }
  const pageFor = prerenderedPages(dir);

  it('finds the file of a page in a language, with or without a trailing slash', () => {
    expect(pageFor('/', 'en')).toBe('en/index.html');
    expect(pageFor('/fees', 'fr')).toBe('fr/fees.html');
    expect(pageFor('/fees/', 'en')).toBe('en/fees.html');
    // A signed-in page's heading.
    expect(pageFor('/transfer', 'fr')).toBe('fr/transfer.html');
  });

  it('gives nothing for pages the build did not prerender, or paths that are not pages', () => {
    expect(pageFor('/login', 'en')).toBeNull();
    expect(pageFor('/../package.json', 'en')).toBeNull();
    expect(pageFor('/fees.html', 'en')).toBeNull();
    expect(pageFor('/en/index', 'en')).toBeNull();
    expect(prerenderedPages(path.join(dir, 'missing'))('/', 'en')).toBeNull();
  });

  it('keeps the known routes known', () => {
    expect(isKnownPageRoute('/fees')).toBe(true);
    expect(isKnownPageRoute('/nope')).toBe(false);
  });
});

describe('the web app\'s files and pages', () => {
  // A build's output: the app shell, a hashed asset (and its gzip), a favicon, a prerendered page;
  // served as plugins/web-pages.ts serves them (@fastify/static, pages through its sendFile).
  const root = mkdtempSync(path.join(tmpdir(), 'web-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const web = path.join(root, 'web');
  const pages = path.join(root, 'pages');
  mkdirSync(path.join(web, 'assets'), { recursive: true });
  mkdirSync(path.join(pages, 'en'), { recursive: true });
  writeFileSync(path.join(web, 'index.html'), '<html>shell</html>');
  writeFileSync(path.join(web, 'favicon.svg'), '<svg/>');
  writeFileSync(path.join(web, 'assets', 'app-Bx9f2.js'), 'console.log(1)');
  writeFileSync(path.join(web, 'assets', 'app-Bx9f2.js.gz'), gzipSync('console.log(1)'));
  writeFileSync(path.join(pages, 'en', 'fees.html'), '<html>fees</html>');

  async function server() {
    const app = Fastify();
    await app.register(fastifyStatic, { root: web, prefix: '/', wildcard: false, index: false, preCompressed: true, ...WEB_FILE_OPTIONS });
    app.setNotFoundHandler((request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return request.url === '/fees' ? reply.sendFile('en/fees.html', pages) : reply.status(404).sendFile('index.html', web);
    });
    return app;
  }

  it('sends the pages with Cache-Control: no-cache (README: Deploying, step 5), hashed assets kept a year', async () => {
    const app = await server();
    try {
      const get = async (url: string, headers: Record<string, string> = {}) => {
        const res = await app.inject({ method: 'GET', url, headers });
        return { status: res.statusCode, cache: res.headers['cache-control'], body: res.body.slice(0, 20) };
      };
      expect(await get('/fees')).toEqual({ status: 200, cache: 'no-cache', body: '<html>fees</html>' });
      expect(await get('/no-such-page')).toEqual({ status: 404, cache: 'no-cache', body: '<html>shell</html>' });
      expect(await get('/index.html')).toMatchObject({ status: 200, cache: 'no-cache' });
      expect(await get('/favicon.svg')).toMatchObject({ status: 200, cache: 'no-cache' });
      expect(await get('/assets/app-Bx9f2.js')).toMatchObject({ status: 200, cache: ASSET_CACHE_CONTROL });
      const gzipped = await app.inject({ method: 'GET', url: '/assets/app-Bx9f2.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gzipped.headers).toMatchObject({ 'content-encoding': 'gzip', 'cache-control': ASSET_CACHE_CONTROL });
      expect(ASSET_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    } finally {
      await app.close();
    }
  });
});
