import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eApp, valueOf } from './support/fixtures.js';
import { seriousViolations, withAxe } from './support/axe.js';

/*
 * Every public route, in English and French: axe-core (no serious or critical
 * violation), no untranslated text in French, <html lang>, title and description in the chosen
 * language, 360 px without horizontal scrolling, keyboard use of tabs, accordions and the mobile
 * menu, and the order in which the language is detected and kept.
 */

const app = useE2eApp();

// --- the catalogs, to know what each language must (not) show ---------------------------------

type Json = string | Json[] | { [k: string]: Json };
type Flat = Record<string, string>;
const LOCALES = path.resolve(__dirname, '../../src/locales');
function flatten(value: Json, prefix = '', out: Flat = {}): Flat {
  if (typeof value === 'string') out[prefix] = value;
  else if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  else for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}
const catalog = (lng: 'en' | 'fr') =>
  Object.fromEntries(
    readdirSync(path.join(LOCALES, lng)).map((f) => [f.replace(/\.json$/, ''), flatten(JSON.parse(readFileSync(path.join(LOCALES, lng, f), 'utf8')) as Json)]),
  ) as Record<string, Flat>;
const EN = catalog('en');
const FR = catalog('fr');

/** English sentences (no placeholders, translated differently in French) that French pages must not show. */
const ENGLISH_SENTENCES = Object.entries(EN).flatMap(([ns, flat]) =>
  Object.entries(flat)
    .filter(([k, v]) => v.length >= 20 && !v.includes('{{') && FR[ns]?.[k] !== v && /\s/.test(v))
    .map(([, v]) => v),
);

/** Any English text (labels included) French translates differently: must not be a French page's aria-label, placeholder or title. */
const ENGLISH_LABELS = new Set(
  Object.entries(EN).flatMap(([ns, flat]) => Object.entries(flat).filter(([k, v]) => !v.includes('{{') && FR[ns]?.[k] !== v).map(([, v]) => v.trim())),
);

/** Title and meta description a route must have in a language (src/web/app/page-meta.ts). */
function expectedMeta(lng: 'en' | 'fr', metaKey: string): { title: string; description: string } {
  const c = lng === 'en' ? EN.common! : FR.common!;
  const title =
    metaKey === 'home' ? c['app.title']! : c['meta.titleFormat']!.replace('{{page}}', c[`meta.${metaKey}.title`]!).replace('{{app}}', c['app.name']!);
  return { title, description: c[`meta.${metaKey}.description`] ?? c['app.description']! };
}

const ROUTES = [
  { path: '/', meta: 'home' },
  { path: '/fees', meta: 'fees' },
  { path: '/faq', meta: 'faq' },
  { path: '/support', meta: 'support' },
  { path: '/privacy', meta: 'privacy' },
  { path: '/terms', meta: 'terms' },
  { path: '/compliance', meta: 'compliance' },
  { path: '/login', meta: 'login' },
  { path: '/register', meta: 'register' },
  { path: '/no/such/page', meta: 'notFound' },
] as const;

// --- helpers ----------------------------------------------------------------------------------

/** A page with axe-core in every document it loads. */
async function axePage(opts: { locale?: string; width?: number } = {}): Promise<Page> {
  const page = await app.page(opts);
  await withAxe(page);
  return page;
}

/** "Loading…" in either language. */
const LOADING = new RegExp(`^(${[EN.common!['states.loading'], FR.common!['states.loading']].join('|')})$`);

/** The page's main heading. */
const mainHeading = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 }).first();

/** The page is up: its heading is there (prerendered pages have it before any script runs), the
 * app has loaded and hydrated it and fetched its data (the network is quiet), nothing is left loading. */
async function ready(page: Page): Promise<void> {
  await mainHeading(page).waitFor();
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.getByRole('main').getByRole('status').filter({ hasText: LOADING }).count()).toBe(0);
}

/**
 * After an in-page navigation: the new page has replaced the old one (navigations run in a
 * transition, so the old page stays until the new one's code is in), which its title shows.
 */
async function arrived(page: Page, metaKey: string, lng: 'en' | 'fr' = 'en'): Promise<void> {
  await expect.poll(() => page.title()).toBe(expectedMeta(lng, metaKey).title);
  await ready(page);
}

async function open(page: Page, route: string): Promise<void> {
  await page.goto(`${app.server.url}${route}`);
  await ready(page);
}

const visibleText = (page: Page) => page.evaluate(() => document.body.innerText);

/**
 * Raw keys on screen: "namespace:key" or "a.dotted.key" tokens (e-mail addresses and host names
 * excluded).
 */
function rawKeys(text: string): string[] {
  const ns = Object.keys(EN).join('|');
  const prefixed = [...text.matchAll(new RegExp(`\\b(?:${ns}):[\\w.]+`, 'g'))].map((m) => m[0]);
  const dotted = [...text.matchAll(/(?<![\w@.-])[a-z][a-zA-Z0-9_]*(?:\.[a-zA-Z_][a-zA-Z0-9_]*)+(?![\w@-])/g)]
    .map((m) => m[0])
    .filter((s) => !/\.(test|com|org|net|fr|ga|rw|io|app|example)$/.test(s));
  return [...prefixed, ...dotted];
}

async function meta(page: Page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    title: document.title,
    description: document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content ?? '',
  }));
}

async function expectFrench(page: Page, route: (typeof ROUTES)[number]): Promise<void> {
  const want = expectedMeta('fr', route.meta);
  await expect.poll(() => meta(page), { message: route.path }).toEqual({ lang: 'fr', ...want });
  expect(want.title).not.toBe(expectedMeta('en', route.meta).title);
  const text = await visibleText(page);
  expect(rawKeys(text), `raw keys on ${route.path}`).toEqual([]);
  expect(ENGLISH_SENTENCES.filter((s) => text.includes(s)), `English on ${route.path}`).toEqual([]);
  const labels = await page.evaluate(() =>
    [...document.querySelectorAll('[aria-label], [placeholder], [title], [alt]')].flatMap((el) =>
      ['aria-label', 'placeholder', 'title', 'alt'].map((a) => el.getAttribute(a)?.trim() ?? '').filter(Boolean),
    ),
  );
  expect(labels.filter((l) => ENGLISH_LABELS.has(l)), `English labels on ${route.path}`).toEqual([]);
}

async function noHorizontalScroll(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
}

/** Whether the focus is on (one of) the element(s) found. */
const hasFocus = (target: Locator) => target.evaluateAll((els) => els.some((el) => el === document.activeElement));

/** Presses Tab until the focus is on (one of) the target(s), or fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await hasFocus(target)) return;
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

/** The EN/FR switcher: its visible "EN" or "FR" starts its name. */
const languageSwitcher = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^(EN|FR) – / });

/** The header's and footer's link to a route, named in the given language. */
const NAV_KEY: Record<string, string> = {
  '/fees': 'nav.fees', '/faq': 'nav.faq', '/support': 'nav.support', '/privacy': 'nav.privacy', '/terms': 'nav.terms',
  '/compliance': 'nav.compliance', '/login': 'nav.login', '/register': 'nav.register',
};
const siteLink = (page: Page, route: string, lng: 'en' | 'fr') =>
  page.getByRole('banner').or(page.getByRole('contentinfo')).getByRole('link', { name: (lng === 'en' ? EN : FR).common![NAV_KEY[route]!], exact: true }).first();

const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

// --- tests ------------------------------------------------------------------------------------

describe('public site, every route in English and French', () => {
  it('English, desktop: no serious or critical axe violation; English title, description and lang', async () => {
    const page = await axePage();
    for (const route of ROUTES) {
      await open(page, route.path);
      await expect.poll(() => meta(page), { message: route.path }).toEqual({ lang: 'en', ...expectedMeta('en', route.meta) });
      expect(await seriousViolations(page), route.path).toEqual([]);
    }
    // The English pages do show the English text the French ones must not.
    await open(page, '/no/such/page');
    expect(await visibleText(page)).toContain('Oops! Page not found');
    await page.context().close();
  });

  it('French via ?lng=fr at 360 px: translated text, title, description and lang; axe clean; no horizontal scroll', async () => {
    const page = await axePage({ width: 360 });
    for (const route of ROUTES) {
      await open(page, `${route.path}?lng=fr`);
      await expectFrench(page, route);
      expect(await seriousViolations(page), route.path).toEqual([]);
      const { scrollWidth, innerWidth } = await noHorizontalScroll(page);
      expect(innerWidth).toBe(360);
      expect(scrollWidth, `horizontal scroll on ${route.path}`).toBeLessThanOrEqual(innerWidth);
    }
    // Every corridor's table fits too (XAF and RWF amounts are the longest).
    await open(page, '/fees?lng=fr');
    const tabs = page.getByRole('tab');
    expect(await tabs.count()).toBeGreaterThanOrEqual(8);
    for (let i = 0; i < (await tabs.count()); i++) {
      await tabs.nth(i).click();
      await expect.poll(() => tabs.nth(i).getAttribute('aria-selected')).toBe('true');
      const { scrollWidth, innerWidth } = await noHorizontalScroll(page);
      expect(scrollWidth, `horizontal scroll on /fees, tab ${i + 1}`).toBeLessThanOrEqual(innerWidth);
    }
    await open(page, '/no/such/page?lng=fr');
    const text = await visibleText(page);
    expect(text).not.toContain('Oops! Page not found');
    expect(text).toContain(FR.public!['notFound.title']);
    await page.context().close();
  });

  it('English at 360 px: no horizontal scroll on any route', async () => {
    const page = await app.page({ width: 360 });
    for (const route of ROUTES) {
      await open(page, route.path);
      const { scrollWidth, innerWidth } = await noHorizontalScroll(page);
      expect(scrollWidth, `horizontal scroll on ${route.path}`).toBeLessThanOrEqual(innerWidth);
    }
    await page.context().close();
  });

  it('the EN/FR switcher turns the whole site French, cached in localStorage i18nextLng', async () => {
    const page = await app.page();
    await open(page, '/');
    const switcher = languageSwitcher(page);
    expect((await switcher.textContent())?.trim()).toMatch(/^EN/);
    await switcher.click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await expect.poll(() => switcher.textContent()).toMatch(/^FR/);
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('fr');
    await expectFrench(page, ROUTES[0]);

    // Every other public route, through the header and footer links (no reload), then a reload.
    for (const route of ROUTES.slice(1)) {
      if (route.meta === 'notFound') continue;
      await siteLink(page, route.path, 'fr').click();
      await page.waitForURL(`${app.server.url}${route.path}`);
      await arrived(page, route.meta, 'fr');
      await expectFrench(page, route);
    }
    await open(page, '/no/such/page');
    await expectFrench(page, ROUTES[9]);
    await open(page, '/fees');
    await expectFrench(page, ROUTES[1]);

    // And back to English with the keyboard.
    // The menu opens on the current language; arrows move, Escape closes, Enter chooses.
    await switcher.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('Français');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    expect(await hasFocus(switcher)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('English');
    await page.keyboard.press('Enter');
    await expect.poll(() => meta(page)).toEqual({ lang: 'en', ...expectedMeta('en', 'fees') });
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');
    await page.context().close();
  });
});

describe('public pages arrive prerendered in the visitor\'s language and are hydrated in place', () => {
  const PUBLIC = ROUTES.slice(0, 7);
  async function fetchPage(route: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${app.server.url}${route}`, { headers });
    const html = await res.text();
    return {
      status: res.status,
      vary: res.headers.get('vary') ?? '',
      lang: /<html lang="([^"]+)"/.exec(html)?.[1],
      title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
      rootLang: /<div id="root" data-lng="([^"]+)"/.exec(html)?.[1] ?? null,
      html,
    };
  }

  it('the server sends each public page with its text, title and lang, in the language of ?lng, the i18next cookie or Accept-Language', async () => {
    for (const route of PUBLIC) {
      for (const lng of ['en', 'fr'] as const) {
        const got = await fetchPage(route.path, { 'accept-language': lng === 'fr' ? 'fr-FR,fr;q=0.9' : 'en-US,en;q=0.9' });
        expect(got.status, route.path).toBe(200);
        expect({ lang: got.lang, title: got.title, rootLang: got.rootLang }, route.path).toEqual({ lang: lng, title: expectedMeta(lng, route.meta).title, rootLang: lng });
        expect(got.html, route.path).toContain(`content="${expectedMeta(lng, route.meta).description}"`);
        expect(got.html, route.path).toMatch(/<main[^>]*>[\s\S]*<h1/);
        expect(got.vary).toMatch(/Accept-Language/i);
        expect(got.vary).toMatch(/Cookie/i);
      }
    }
    const home = await fetchPage('/');
    expect(home.html).toContain(EN.public!['home.hero.title']);
    expect(home.lang).toBe('en');
    expect((await fetchPage('/faq', { 'accept-language': 'fr' })).html).toContain(FR.public!['faq.title']);
    // The same order as the browser: ?lng, then the cookie, then Accept-Language (first supported).
    expect((await fetchPage('/fees?lng=fr', { cookie: 'i18next=en', 'accept-language': 'en' })).lang).toBe('fr');
    expect((await fetchPage('/fees?lng=en', { cookie: 'i18next=fr', 'accept-language': 'fr' })).lang).toBe('en');
    expect((await fetchPage('/fees', { cookie: 'a=1; i18next=fr', 'accept-language': 'en' })).lang).toBe('fr');
    expect((await fetchPage('/fees', { 'accept-language': 'de-DE,de;q=0.9,fr;q=0.8,en;q=0.7' })).lang).toBe('fr');
    expect((await fetchPage('/fees/', { 'accept-language': 'fr' })).rootLang).toBe('fr');
    // Pages that are not prerendered get the plain shell; unknown ones still answer 404.
    expect((await fetchPage('/login', { 'accept-language': 'fr' })).rootLang).toBeNull();
    expect((await fetchPage('/no/such/page')).status).toBe(404);
  });

  it('the browser hydrates the prerendered page (same heading element, no error), then prices come live from the API', async () => {
    for (const locale of ['en-US', 'fr-FR']) {
      const page = await app.page({ locale, width: 412 });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      // The heading as parsed from the HTML, before any script of the app has run.
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState === 'interactive') (window as unknown as { firstHeading: Element | null }).firstHeading = document.querySelector('main h1');
        });
      });
      for (const route of ['/', '/fees', '/faq']) {
        await open(page, route);
        const same = await page.evaluate(() => {
          const first = (window as unknown as { firstHeading: Element | null }).firstHeading;
          return !!first && first.isConnected && first === document.querySelector('main h1');
        });
        expect(same, `${route} (${locale}): the prerendered heading was kept`).toBe(true);
      }
      // Live and interactive: the calculator prices 250 from the server's tiers and rates.
      await open(page, '/');
      const words = (locale === 'en-US' ? EN : FR).public!;
      const calculator = page.getByRole('region', { name: words['calculator.title'] });
      await calculator.getByRole('textbox', { name: words['calculator.amount']!.replace('{{currency}}', 'USD') }).fill('250');
      await expect.poll(() => valueOf(calculator, words['calculator.youSend']!)).toMatch(locale === 'en-US' ? /^\$250\.00$/ : /^250,00\s\$US$/u);
      expect(errors, locale).toEqual([]);
      await page.context().close();
    }
  });

  it('a language chosen in the switcher is also kept in the i18next cookie, so the next page arrives prerendered in it', async () => {
    const page = await app.page();
    await open(page, '/');
    await languageSwitcher(page).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === 'i18next')?.value).toBe('fr');
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await fetchPage('/fees', { cookie, 'accept-language': 'en-US' })).lang).toBe('fr');
    // A reload keeps French from the first byte, without an error from a mismatch.
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await open(page, '/fees');
    await expectFrench(page, ROUTES[1]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('language detection (?lng, cookie i18next, localStorage, sessionStorage, browser)', () => {
  async function detect(setup: { locale?: string; query?: string; cookie?: string; local?: string; session?: string }) {
    const page = await app.page({ locale: setup.locale ?? 'en-US' });
    const ctx: BrowserContext = page.context();
    if (setup.cookie) await ctx.addCookies([{ name: 'i18next', value: setup.cookie, url: app.server.url }]);
    if (setup.local || setup.session) {
      // Storage is per origin: visit once to write it, then load the page under test.
      await page.goto(`${app.server.url}/robots.txt`);
      await page.evaluate(({ local, session }) => {
        if (local) localStorage.setItem('i18nextLng', local);
        if (session) sessionStorage.setItem('i18nextLng', session);
      }, setup);
    }
    await open(page, `/faq${setup.query ? `?lng=${setup.query}` : ''}`);
    const got = { lang: (await meta(page)).lang, cached: await page.evaluate(() => localStorage.getItem('i18nextLng')) };
    const heading = await mainHeading(page).textContent();
    await ctx.close();
    return { ...got, heading };
  }

  it('follows the browser language when nothing else is set, and caches it', async () => {
    expect(await detect({ locale: 'fr-FR' })).toEqual({ lang: 'fr', cached: expect.stringMatching(/^fr\b/), heading: FR.public!['faq.title'] });
    expect(await detect({ locale: 'en-US' })).toEqual({ lang: 'en', cached: expect.stringMatching(/^en\b/), heading: EN.public!['faq.title'] });
  });

  it('?lng wins over everything, then the cookie, then localStorage, then sessionStorage, then the browser', async () => {
    expect((await detect({ query: 'en', cookie: 'fr', local: 'fr', session: 'fr', locale: 'fr-FR' })).lang).toBe('en');
    expect((await detect({ query: 'fr', cookie: 'en', local: 'en', session: 'en' })).lang).toBe('fr');
    expect((await detect({ cookie: 'fr', local: 'en', session: 'en' })).lang).toBe('fr');
    expect((await detect({ cookie: 'en', local: 'fr', locale: 'fr-FR' })).lang).toBe('en');
    expect((await detect({ local: 'fr', session: 'en' })).lang).toBe('fr');
    expect((await detect({ local: 'en', session: 'fr', locale: 'fr-FR' })).lang).toBe('en');
    expect((await detect({ session: 'fr' })).lang).toBe('fr');
  });

  it('caches ?lng in localStorage, so the next visit without it keeps the language', async () => {
    const page = await app.page();
    await open(page, '/support?lng=fr');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('fr');
    await open(page, '/terms');
    await expectFrench(page, ROUTES[5]);
    await page.context().close();
  });
});

describe('keyboard and the mobile menu', () => {
  it('fees: Tab reaches the corridor tabs, arrow keys switch corridors', async () => {
    const page = await app.page();
    await open(page, '/fees');
    const tabs = page.getByRole('tab');
    await tabTo(page, tabs);
    expect(await tabs.first().getAttribute('aria-selected')).toBe('true');
    const panelHeading = page.getByRole('tabpanel').getByRole('heading', { level: 2 });
    const firstPanel = await panelHeading.textContent();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => tabs.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab');
    const secondPanel = await panelHeading.textContent();
    expect(secondPanel).not.toBe(firstPanel);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => tabs.first().getAttribute('aria-selected')).toBe('true');
    // Tab leaves the tab list for the selected panel's content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('tab');
    await page.context().close();
  });

  it('faq: arrow keys switch categories; Enter and Space open and close the questions', async () => {
    const page = await axePage();
    await open(page, '/faq');
    const category = (id: string) => EN.public![`faq.category.${id}`]!;
    await tabTo(page, page.getByRole('tab'));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('tab', { name: category('transfers'), exact: true }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.getByRole('tab', { name: category('general'), exact: true }).getAttribute('aria-selected')).toBe('true');

    // The questions of the open category are its panel's buttons.
    const questions = page.getByRole('tabpanel', { name: category('general'), exact: true }).getByRole('button');
    await tabTo(page, questions);
    const first = questions.first();
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('tabpanel').getByRole('region').count()).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => first.getAttribute('aria-expanded')).toBe('true');
    // The answer is the region the question names and controls.
    const answer = page.getByRole('region', { name: (await first.textContent())!.trim(), exact: true });
    await expect.poll(() => answer.isVisible()).toBe(true);
    expect(await answer.getAttribute('id')).toBe(await first.getAttribute('aria-controls'));
    expect((await answer.textContent())?.length).toBeGreaterThan(20);
    expect(await seriousViolations(page), 'faq with an open answer').toEqual([]);
    await page.keyboard.press('Space');
    await expect.poll(() => first.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => answer.isVisible()).toBe(false);

    await page.keyboard.press('Tab');
    const second = questions.nth(1);
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe((await second.textContent())?.trim());
    await page.keyboard.press('Space');
    await expect.poll(() => second.getAttribute('aria-expanded')).toBe('true');
    await page.context().close();
  });

  it('360 px: the mobile menu opens by click and by keyboard, navigates, and closes on Escape', async () => {
    const page = await axePage({ width: 360 });
    await open(page, '/');
    const toggle = page.getByRole('banner').getByRole('button', { name: /^(Open|Close) menu$/ });
    const menu = page.getByRole('navigation', { name: EN.common!['nav.mobile'], exact: true });
    expect(await toggle.isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: EN.common!['nav.main'], exact: true }).isVisible()).toBe(false);
    expect(await menu.isVisible()).toBe(false);

    // Click: opens, a link navigates and closes it.
    await toggle.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await seriousViolations(page), 'open mobile menu').toEqual([]);
    await menu.getByRole('link', { name: EN.common!['nav.faq'], exact: true }).click();
    await page.waitForURL(`${app.server.url}/faq`);
    await arrived(page, 'faq');
    await expect.poll(() => menu.isVisible()).toBe(false);

    // Keyboard: Tab to the toggle, Enter opens, Tab into the links, Enter follows one.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, toggle);
    await page.keyboard.press('Enter');
    await expect.poll(() => menu.isVisible()).toBe(true);
    await tabTo(page, menu.getByRole('link', { name: EN.common!['nav.fees'], exact: true }), 10);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.server.url}/fees`);
    await arrived(page, 'fees');
    await expect.poll(() => menu.isVisible()).toBe(false);

    // Space opens, Escape closes and gives the focus back to the toggle.
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await hasFocus(toggle)).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await page.context().close();
  });
});
