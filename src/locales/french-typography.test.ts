import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * French typography over every French catalogue (screens, e-mails, receipts and error messages
 * all read their words from src/locales/fr): the typographic apostrophe ’, « guillemets » with a
 * narrow no-break space (U+202F) inside, a narrow no-break space before ; ! ? and a no-break
 * space (U+00A0) before a colon. Interpolations ({{x}}, $t(…)), markup (<1>…</1>), addresses
 * (https://…, mailto:…) and times (10:30) are not text and are left out of the check.
 */

const FR = path.join(__dirname, 'fr');
const NNBSP = '\u202F';
const NBSP = '\u00A0';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

function strings(value: Json, prefix: string, out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([prefix, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${prefix}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, `${prefix}.${k}`, out);
  return out;
}

/** What is not text: each becomes one private-use character (neither a space nor punctuation). */
const NOT_TEXT = /\{\{[^}]*\}\}|\$t\([^)]*\)|\b(?:https?|mailto):[^\s»"]+|<\/?\w+[^>]*>|&[a-z]+;|\b\d{1,2}:\d{2}\b/g;
const textOf = (s: string) => s.replace(NOT_TEXT, '\uE000');

/** The typography faults of one French string, named as a reviewer would. */
function frenchTypographyFaults(s: string): string[] {
  const text = textOf(s);
  const faults: string[] = [];
  if (text.includes("'")) faults.push('straight apostrophe (write ’)');
  if (/["“”]/.test(text)) faults.push('English quotes (write « … »)');
  if (/(^|[^\u202F!?])[;!?]/.test(text)) faults.push('; ! ? without a narrow no-break space (U+202F) before it');
  if (/(^|[^\u00A0]):/.test(text)) faults.push(': without a no-break space (U+00A0) before it');
  if (/«(?!\u202F)|(?<!\u202F)»/.test(text)) faults.push('« » without a narrow no-break space (U+202F) inside');
  return faults;
}

const catalogues = readdirSync(FR).filter((f) => f.endsWith('.json')).sort();

describe('French typography', () => {
  it('tells each fault from correct French', () => {
    expect(frenchTypographyFaults(`L’argent est arrivé${NNBSP}! Référence${NBSP}: «${NNBSP}MT-1${NNBSP}»${NNBSP}; à 10:30, voir https://x.test/a?b=1`)).toEqual([]);
    expect(frenchTypographyFaults('L\'argent')).toEqual(['straight apostrophe (write ’)']);
    expect(frenchTypographyFaults('Prêt ?')).toEqual(['; ! ? without a narrow no-break space (U+202F) before it']);
    expect(frenchTypographyFaults('Prêt?')).toEqual(['; ! ? without a narrow no-break space (U+202F) before it']);
    expect(frenchTypographyFaults('Fait ; merci')).toHaveLength(1);
    expect(frenchTypographyFaults('Référence : {{reference}}')).toEqual([': without a no-break space (U+00A0) before it']);
    expect(frenchTypographyFaults(`Référence${NNBSP}: {{reference}}`)).toEqual([': without a no-break space (U+00A0) before it']);
    expect(frenchTypographyFaults('« Fermer »')).toEqual(['« » without a narrow no-break space (U+202F) inside']);
    expect(frenchTypographyFaults('"Fermer"')).toEqual(['English quotes (write « … »)']);
    // Interpolations, times and addresses are not text.
    expect(frenchTypographyFaults(`{{day}}${NBSP}: {{amount}} à {{time}}, 09:05`)).toEqual([]);
    expect(frenchTypographyFaults(`Écrivez à mailto:aide@x.test ou https://x.test/?a=b`)).toEqual([]);
  });

  it.each(catalogues)('%s: every string is typeset in French', (file) => {
    const json = JSON.parse(readFileSync(path.join(FR, file), 'utf8')) as Json;
    const faults = strings(json, file.replace(/\.json$/, ''))
      .map(([key, value]) => ({ key, value, faults: frenchTypographyFaults(value) }))
      .filter((f) => f.faults.length > 0);
    expect(faults).toEqual([]);
  });
});
