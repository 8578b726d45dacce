import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isKnownPageRoute, prerenderedPages } from '@server/page-routes.js';

describe('prerendered public pages', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pages-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const lang of ['en', 'fr']) {
    mkdirSync(path.join(dir, lang));
    for (const name of ['index', 'fees']) writeFileSync(path.join(dir, lang, `${name}.html`), '<html></html>');
  }
  const pageFor = prerenderedPages(dir);

  it('finds the file of a page in a language, with or without a trailing slash', () => {
    expect(pageFor('/', 'en')).toBe('en/index.html');
    expect(pageFor('/fees', 'fr')).toBe('fr/fees.html');
    expect(pageFor('/fees/', 'en')).toBe('en/fees.html');
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
