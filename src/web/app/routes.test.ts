import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@core/languages';
import { PAGE_ROUTES } from '@core/routes';
import { NAMESPACES } from '../lib/i18n';

const pages = import.meta.glob('../features/*/*-page.tsx');
const catalogs = import.meta.glob<{ meta: Record<string, { title?: string }> }>('../../locales/*/common.json', { eager: true, import: 'default' });

describe('every route of src/core/routes.ts', () => {
  it('names a page module that exists', () => {
    for (const route of PAGE_ROUTES) expect(pages, route.path).toHaveProperty([`../features/${route.page}.tsx`]);
  });

  it('has a title in every language and reads known namespaces', () => {
    for (const lng of LANGUAGES) {
      const { meta } = catalogs[`../../locales/${lng}/common.json`]!;
      for (const route of PAGE_ROUTES) {
        if (route.meta !== 'home') expect(meta[route.meta]?.title, `${lng} ${route.meta}`).toBeTruthy();
        for (const ns of route.namespaces) expect(NAMESPACES).toContain(ns);
      }
    }
  });
});
