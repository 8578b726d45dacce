import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The shell's namespaces: every key in English and French, no empty text, same placeholders.
const ROOT = path.resolve(__dirname, '../../locales');
const NAMESPACES = ['common', 'public'];

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

function flatten(value: Json, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (typeof value === 'string') out[prefix] = value;
  else if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

const load = (lng: string, ns: string) => flatten(JSON.parse(readFileSync(path.join(ROOT, lng, `${ns}.json`), 'utf8')) as Json);
const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
// French has a "many" plural form English lacks.
const base = (k: string) => k.replace(/_(one|many|other|zero|two|few)$/, '');

describe.each(NAMESPACES)('translations: %s', (ns) => {
  const en = load('en', ns);
  const fr = load('fr', ns);

  it('has the same keys in English and French', () => {
    expect([...new Set(Object.keys(fr).map(base))].sort()).toEqual([...new Set(Object.keys(en).map(base))].sort());
  });

  it('has no empty text', () => {
    for (const [k, v] of [...Object.entries(en), ...Object.entries(fr)]) expect(v.trim(), k).not.toBe('');
  });

  it('uses the same placeholders in both languages', () => {
    for (const [k, v] of Object.entries(en)) if (fr[k] !== undefined) expect(vars(fr[k]!), k).toEqual(vars(v));
  });
});

describe('locale folders', () => {
  it('exist for English and French', () => {
    expect(readdirSync(ROOT).sort()).toEqual(expect.arrayContaining(['en', 'fr']));
  });
});

describe('every namespace', () => {
  // The build leaves i18next's formatter out (vite.config.ts): `{{amount, number}}` would show the bare value.
  it('formats no value inside a translation ({{value, format}})', () => {
    for (const lng of ['en', 'fr']) {
      for (const file of readdirSync(path.join(ROOT, lng))) {
        const texts = flatten(JSON.parse(readFileSync(path.join(ROOT, lng, file), 'utf8')) as Json);
        for (const [k, v] of Object.entries(texts)) expect(v, `${lng}/${file} ${k}`).not.toMatch(/\{\{[^}]*,[^}]*\}\}/);
      }
    }
  });
});
