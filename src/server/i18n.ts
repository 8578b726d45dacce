import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInstance, type Resource } from 'i18next';
import { LANGUAGES, type Lang } from '../core/languages.js';
import { LOCALES_DIR } from './paths.js';

export { LANGUAGES, type Lang };

/** A language's catalogs as one tree, each file under its name: keys read "namespace.key.path". */
function catalogsOf(lang: Lang): Record<string, unknown> {
  const dir = path.join(LOCALES_DIR, lang);
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as unknown]));
}

const resources: Resource = Object.fromEntries(LANGUAGES.map((lang) => [lang, { translation: catalogsOf(lang) }]));

// The same catalogs the browser loads, read once at start, through the same library: plurals
// ("_one"/"_other", French "_many") follow the language's rules when a message is given `count`.
const i18n = createInstance();
void i18n.init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  // Plain messages pass through as they are, colons included: no namespace prefix is looked for.
  nsSeparator: false,
  interpolation: { escapeValue: false },
  // A variable not given reads as nothing, never as "{{name}}".
  missingInterpolationHandler: () => '',
});
const translators = Object.fromEntries(LANGUAGES.map((lang) => [lang, i18n.getFixedT(lang)])) as Record<Lang, ReturnType<typeof i18n.getFixedT>>;

/** "namespace.key.path" → message, every string of a catalog tree. */
function flatten(tree: unknown, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (typeof tree === 'string') into.set(prefix, tree);
  else if (tree && typeof tree === 'object') for (const [k, v] of Object.entries(tree)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  return into;
}

/** A message split at its {{variables}}: text, name, text, name, …, text; null: left to i18next. */
type Compiled = string[] | null;
const VARIABLE = /{{\s*([^{}]*?)\s*}}/;

/**
 * Messages compiled once per language: i18next resolves the key, its fallback and the
 * interpolation on every call, tens of microseconds each, and a transfer's e-mail alone takes
 * nine messages inside the initiation request. Only messages i18next would fill in the same way
 * are compiled: plain {{name}} variables, no formats ("{{x, number}}") or nesting ("$t(…)").
 */
const compiled = Object.fromEntries(LANGUAGES.map((lang) => {
  const messages = new Map<string, Compiled>();
  for (const [key, message] of flatten(resources[lang]!.translation)) {
    const parts = message.split(VARIABLE);
    const plain = !message.includes('$t(') && parts.every((part, i) => i % 2 === 0 || (part !== '' && !part.includes(',')));
    messages.set(key, plain ? parts : null);
  }
  return [lang, messages];
})) as Record<Lang, Map<string, Compiled>>;

/** i18next itself: plurals (a `count`), unknown keys and whatever was not compiled. */
export function translateWithI18next(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  return translators[lang](key, vars);
}

/**
 * Translates "namespace.key.path" with {{var}} interpolation (a `count` picks the plural form),
 * in English when the language lacks the key. Text that is not a known key is returned as is, so
 * plain messages pass through. A variable not given reads as nothing.
 */
export function t(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const own = vars.count === undefined ? compiled[lang].get(key) : null;
  const parts = own === undefined ? compiled.en.get(key) : own;
  if (!parts) return translateWithI18next(lang, key, vars);
  let text = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) text += String(vars[parts[i]!] ?? '') + parts[i + 1]!;
  return text;
}
