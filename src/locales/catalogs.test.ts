import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every message catalog, in both languages, and every literal key the code asks for.
 * The catalogs are shared: the browser loads /locales/{lng}/{ns}.json, the server reads the same
 * files (src/server/i18n.ts, keys written "namespace.key.path").
 */

const LOCALES = __dirname;
const SRC = path.resolve(__dirname, '..');
const LANGUAGES = ['en', 'fr'] as const;

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
type Flat = Record<string, string>;

function flatten(value: Json, prefix = '', out: Flat = {}): Flat {
  if (typeof value === 'string') out[prefix] = value;
  else if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  else out[prefix] = String(value);
  return out;
}

const namespacesOf = (lng: string) =>
  readdirSync(path.join(LOCALES, lng))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

const catalogs = Object.fromEntries(
  LANGUAGES.map((lng) => [
    lng,
    Object.fromEntries(namespacesOf(lng).map((ns) => [ns, flatten(JSON.parse(readFileSync(path.join(LOCALES, lng, `${ns}.json`), 'utf8')) as Json)])),
  ]),
) as Record<(typeof LANGUAGES)[number], Record<string, Flat>>;

const PLURAL = /_(zero|one|two|few|many|other)$/;
/** French has plural forms ("_many") English lacks: keys are compared without their plural suffix. */
const base = (key: string) => key.replace(PLURAL, '');
const vars = (s: string) => [...new Set([...s.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]!))].sort();

/** The English counterpart of a French key: the same key, else the "other" plural form. */
function englishOf(en: Flat, key: string): string | undefined {
  return en[key] ?? (PLURAL.test(key) ? en[`${base(key)}_other`] : undefined);
}

/**
 * French text identical to the English text, on purpose: brand and product names, country names,
 * and words French spells the same way. Any other identical text is an untranslated copy.
 */
const SAME_IN_FRENCH = new Set([
  'GabRemit',
  // The word French uses for a photo of oneself (l’Académie: « égoportrait », rarely said).
  'Selfie',
  'BIC',
  'PayPal (USD)',
  'PayPal (EUR)',
  'Airtel Money Gabon',
  'Airtel Money Rwanda',
  'MTN MoMo Rwanda',
  'PayPal Payouts',
  'minutes',
  'Mobile money Rwanda',
  'PayPal ⇄ Gabon · Rwanda · France',
  'Airtel Money · XAF',
  'Mobile money · RWF',
  'Gabon',
  'Rwanda',
  'France',
  'FAQ',
  'IBAN',
  'Admin',
  'E-mail',
  'Volume',
  'Total',
  'Corridor',
  'Corridors',
  'Note',
  'Notes',
  'Actions',
  'Date',
  'Transactions',
  'Notifications',
  'International',
  'Contact',
  'Sanctions',
]);
/** Text with no letters outside its {{placeholders}} ("{{from}} → {{to}}") needs no translation. */
const hasWords = (s: string) => /\p{L}/u.test(s.replace(/\{\{[^}]*\}\}/g, ''));

describe('message catalogs', () => {
  it('exist in English and French with the same namespaces', () => {
    expect(namespacesOf('en').length).toBeGreaterThan(0);
    expect(namespacesOf('fr')).toEqual(namespacesOf('en'));
    expect(namespacesOf('en')).toEqual(expect.arrayContaining(['common', 'public', 'validation', 'errors', 'auth', 'transfer', 'admin']));
  });

  describe.each(namespacesOf('en'))('%s', (ns) => {
    const en = catalogs.en[ns] ?? {};
    const fr = catalogs.fr[ns] ?? {};

    it('has the same keys in English and French', () => {
      const keys = (flat: Flat) => [...new Set(Object.keys(flat).map(base))].sort();
      expect(keys(fr)).toEqual(keys(en));
    });

    it('has no empty text', () => {
      for (const [lng, flat] of [['en', en], ['fr', fr]] as const) {
        for (const [key, value] of Object.entries(flat)) expect(value.trim(), `${lng}/${ns}: ${key}`).not.toBe('');
      }
    });

    it('uses the same {{placeholders}} in both languages', () => {
      for (const [key, value] of Object.entries(fr)) {
        const english = englishOf(en, key);
        if (english === undefined) continue; // reported by the key test
        // A singular may spell the count out ("one transfer"): compare it to the plural's variables.
        const expected = PLURAL.test(key) ? vars(en[`${base(key)}_other`] ?? english) : vars(english);
        const got = vars(value);
        if (PLURAL.test(key) && !key.endsWith('_other')) expect(expected, `${ns}: ${key}`).toEqual(expect.arrayContaining(got));
        else expect(got, `${ns}: ${key}`).toEqual(expected);
      }
    });

    it('translates every sentence into French (no copies of the English text)', () => {
      const copies = Object.entries(fr)
        .filter(([key, value]) => value === englishOf(en, key) && hasWords(value) && !SAME_IN_FRENCH.has(value))
        .map(([key, value]) => `${key}: ${value}`);
      expect(copies).toEqual([]);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Keys the code asks for

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const NS = Object.keys(catalogs.en).join('|');
/** A whole key as the server writes it: "validation.amountInvalid", "auth.errors.unverified". */
const FULL_KEY = new RegExp(`^(${NS})\\.[\\w.]+$`);
const STRING = `(['"\`])([^'"\`$\\n]+)\\1`;

/** Does `ns:key` (or a plural form of it) exist in the English catalog? */
function exists(ns: string, key: string): boolean {
  const flat = catalogs.en[ns];
  if (!flat) return false;
  if (flat[key] !== undefined) return true;
  // An object key (t('x', { returnObjects: true })) or a plural family.
  return Object.keys(flat).some((k) => k.startsWith(`${key}.`) || k.startsWith(`${key}[`) || base(k) === key);
}

interface Use {
  file: string;
  key: string;
  /** Namespaces the key may live in (the first that has it wins). */
  namespaces: string[];
}

/**
 * Literal keys in browser code: `t('key')` resolved in the namespace of the file's
 * useTranslation (its first namespace; "common" for useTranslation()), `t('ns:key')`,
 * `t('key', { ns: 'x' })`, and whole server-style keys handed to translateKey or zod (`message:`).
 * A file without useTranslation (a helper given `t`) may use any namespace.
 */
function browserKeys(file: string, text: string): Use[] {
  const fileNs = [...text.matchAll(/useTranslation\(\s*(?:\[\s*)?(?:(['"])(\w+)\1)?/g)].map((m) => m[2] ?? 'common');
  const anyNs = Object.keys(catalogs.en);
  const uses: Use[] = [];
  for (const m of text.matchAll(new RegExp(`\\bt\\(\\s*${STRING}(\\s*,\\s*\\{[^}]*?\\bns:\\s*['"](\\w+)['"])?`, 'g'))) {
    const raw = m[2]!;
    const [ns, key] = raw.includes(':') ? raw.split(':', 2) : [m[4], raw];
    uses.push({ file, key: key!, namespaces: ns ? [ns] : fileNs.length ? [...new Set(fileNs)] : anyNs });
  }
  for (const m of text.matchAll(new RegExp(`(?:translateKey\\(\\s*\\w+\\s*,\\s*|\\bmessage:\\s*)${STRING}`, 'g'))) {
    if (FULL_KEY.test(m[2]!)) uses.push(fullKey(file, m[2]!));
  }
  return uses;
}

/** Server and shared code: every string literal shaped like "namespace.key" is a message key. */
function serverKeys(file: string, text: string): Use[] {
  return [...text.matchAll(new RegExp(STRING, 'g'))].map((m) => m[2]!).filter((s) => FULL_KEY.test(s)).map((s) => fullKey(file, s));
}

function fullKey(file: string, whole: string): Use {
  const [ns, ...rest] = whole.split('.');
  return { file, key: rest.join('.'), namespaces: [ns!] };
}

/** Code without its comments (examples in comments are not uses). */
const readSource = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

const missing = (uses: Use[]) =>
  uses.filter((u) => !u.namespaces.some((ns) => exists(ns, u.key))).map((u) => `${path.relative(SRC, u.file)}: ${u.namespaces.join('|')}:${u.key}`);

describe('keys used by the code', () => {
  const web = sources(path.join(SRC, 'web')).flatMap((f) => browserKeys(f, readSource(f)));
  const server = ['server', 'core'].flatMap((d) => sources(path.join(SRC, d))).flatMap((f) => serverKeys(f, readSource(f)));

  it('finds the literal keys of the browser and server code', () => {
    // A scanner that finds nothing would pass everything.
    expect(web.length).toBeGreaterThan(300);
    expect(server.length).toBeGreaterThan(50);
    expect(web.some((u) => u.key === 'nav.home' && u.namespaces.includes('common'))).toBe(true);
    expect(server.some((u) => u.key === 'pairUnsupported' && u.namespaces[0] === 'validation')).toBe(true);
  });

  it('exist in the English catalog (browser code)', () => {
    expect(missing(web)).toEqual([]);
  });

  it('exist in the English catalog (server and shared code)', () => {
    expect(missing(server)).toEqual([]);
  });

  it('the scanner reports a key that is not in the catalog', () => {
    const snippet = `const { t } = useTranslation(['public', 'common']);\nt('fees.title'); t('fees.noSuchKey'); t('common:nav.nope');`;
    expect(missing(browserKeys('x.tsx', snippet)).map((s) => s.split(': ')[1])).toEqual(['public:fees.noSuchKey', 'common:nav.nope']);
    expect(missing(serverKeys('x.ts', `throw badRequest('validation.noSuchKey');`))).toHaveLength(1);
  });
});
