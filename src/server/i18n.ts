import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCALES_DIR } from './paths.js';

export const LANGUAGES = ['en', 'fr'] as const;
export type Lang = (typeof LANGUAGES)[number];

type Tree = { [k: string]: string | Tree };
const catalogs = new Map<Lang, Record<string, Tree>>();

function load(lang: Lang): Record<string, Tree> {
  let cat = catalogs.get(lang);
  if (!cat) {
    cat = {};
    const dir = path.join(LOCALES_DIR, lang);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      cat[file.replace(/\.json$/, '')] = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Tree;
    }
    catalogs.set(lang, cat);
  }
  return cat;
}

function lookup(lang: Lang, key: string): string | undefined {
  const [ns, ...rest] = key.split('.');
  let node: string | Tree | undefined = load(lang)[ns ?? ''];
  for (const part of rest) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/**
 * Translates "namespace.key.path" with {{var}} interpolation, the same catalogs the browser loads.
 * Text that is not a known key is returned as is, so plain messages pass through.
 */
export function t(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const text = lookup(lang, key) ?? lookup('en', key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** Language from `?lng` (pages only), the i18next cookie, else Accept-Language, else English (spec §1). */
export function pickLanguage(cookieHeader: string | undefined, acceptLanguage: string | undefined, queryLng?: string): Lang {
  const cookie = /(?:^|;\s*)i18next=([a-zA-Z-]+)/.exec(cookieHeader ?? '')?.[1];
  for (const candidate of [queryLng, cookie, ...(acceptLanguage ?? '').split(',').map((p) => p.split(';')[0]?.trim())]) {
    const base = candidate?.slice(0, 2).toLowerCase();
    if (base === 'en' || base === 'fr') return base;
  }
  return 'en';
}
