import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES, t, translateWithI18next } from './i18n.js';
import { LOCALES_DIR } from './paths.js';

describe('server messages', () => {
  it('picks the plural form the count needs, in English and French', () => {
    expect(t('en', 'errors.rateLimited', { count: 1 })).toBe('Too many attempts. Please try again in 1 minute.');
    expect(t('en', 'errors.rateLimited', { count: 2 })).toBe('Too many attempts. Please try again in 2 minutes.');
    expect(t('fr', 'errors.rateLimited', { count: 1 })).toBe('Trop de tentatives. Veuillez réessayer dans 1 minute.');
    expect(t('fr', 'errors.rateLimited', { count: 2 })).toBe('Trop de tentatives. Veuillez réessayer dans 2 minutes.');
    // French counts zero as one.
    expect(t('fr', 'errors.rateLimited', { count: 0 })).toBe('Trop de tentatives. Veuillez réessayer dans 0 minute.');
  });

  it('fills {{variables}}, and leaves nothing of one not given', () => {
    expect(t('en', 'auth.register.codeSent', { email: 'ada@example.test' })).toContain('ada@example.test');
    expect(t('en', 'auth.register.codeSent')).not.toContain('{{');
  });

  it('passes plain text and unknown keys through as they are', () => {
    expect(t('en', 'Failed: the provider said no. Try again.')).toBe('Failed: the provider said no. Try again.');
    expect(t('fr', 'no.such.key')).toBe('no.such.key');
  });
});

describe('compiled messages', () => {
  const keysOf = (tree: unknown, prefix = ''): string[] => (typeof tree === 'string' ? [prefix]
    : Object.entries(tree as Record<string, unknown>).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k)));
  const catalog = (lang: string) => Object.fromEntries(readdirSync(path.join(LOCALES_DIR, lang)).filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(LOCALES_DIR, lang, f), 'utf8')) as unknown]));
  const allKeys = [...new Set(LANGUAGES.flatMap((lang) => keysOf(catalog(lang))))];

  it('read every message of both languages exactly as i18next does, variables given, missing or odd', () => {
    expect(allKeys.length).toBeGreaterThan(500);
    const names = [...new Set([...JSON.stringify(LANGUAGES.map(catalog)).matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]!))];
    const given = Object.fromEntries(names.map((name, i) => [name, i % 3 === 0 ? i : `«${name} $& {{x}}»`]));
    let compared = 0;
    for (const lang of LANGUAGES) {
      for (const key of allKeys) {
        for (const vars of [{}, given, { name: '' }]) {
          expect(t(lang, key, vars), `${lang} ${key}`).toBe(translateWithI18next(lang, key, vars));
          compared++;
        }
      }
    }
    expect(compared).toBe(allKeys.length * LANGUAGES.length * 3);
    // Every message of both catalogues three times through i18next: seconds of work, more on a busy machine.
  }, 60_000);
});
