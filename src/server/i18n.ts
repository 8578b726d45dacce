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

/**
 * Translates "namespace.key.path" with {{var}} interpolation (a `count` picks the plural form),
 * in English when the language lacks the key. Text that is not a known key is returned as is, so
 * plain messages pass through.
 */
export function t(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  return translators[lang](key, vars);
}
