import { describe, expect, it } from 'vitest';
import { NOT_FOUND_ROUTE, PAGE_ROUTES, prerenderedFileName, routeFor } from './routes';

describe('the route list', () => {
  it('lists each path once, the not-found page last', () => {
    const paths = PAGE_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(PAGE_ROUTES.at(-1)).toBe(NOT_FOUND_ROUTE);
  });

  it('prerenders the public pages only, each into its own file', () => {
    const prerendered = PAGE_ROUTES.filter((r) => r.prerendered);
    expect(prerendered.map((r) => r.path)).toEqual(['/', '/fees', '/faq', '/support', '/privacy', '/terms', '/compliance']);
    expect(prerendered.every((r) => !r.access && r.namespaces.includes('public'))).toBe(true);
    expect(prerendered.map(prerenderedFileName)).toEqual(['index', 'fees', 'faq', 'support', 'privacy', 'terms', 'compliance']);
  });
});

describe('the page of an address', () => {
  it('matches as React Router does: trailing slash and letter case aside, a parameter for one segment', () => {
    expect(routeFor('/').meta).toBe('home');
    expect(routeFor('/fees/').meta).toBe('fees');
    expect(routeFor('/FAQ').meta).toBe('faq');
    expect(routeFor('/pay/3f2a').meta).toBe('payment');
    expect(routeFor('/pay/3f2a/').meta).toBe('payment');
    expect(routeFor('/dev/outbox').meta).toBe('outbox');
  });

  it('gives the not-found page for any other address', () => {
    for (const path of ['/nowhere', '/pay', '/pay/', '/pay/a/b', '/fees/x', '//fees', '/fees.html', '/en/index', '/../package.json']) {
      expect(routeFor(path), path).toBe(NOT_FOUND_ROUTE);
    }
  });
});
