import { readFileSync } from 'node:fs';
import path from 'node:path';

// The app's own words, read from its locale files, so that a test finds what a person reads.

/** One namespace of one language (src/locales/<lng>/<ns>.json). */
export const catalog = (lng: string, ns: string) => JSON.parse(readFileSync(path.resolve(__dirname, `../../../src/locales/${lng}/${ns}.json`), 'utf8'));

/** One namespace in English and in French. */
export const inBothLanguages = (ns: string) => ({ en: catalog('en', ns), fr: catalog('fr', ns) }) as const;
