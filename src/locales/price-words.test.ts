import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A quote is a promise (docs/rules/fees-and-rates.md#a-quote-is-a-promise): the price a sender
 * sees is the price charged, so no screen, e-mail, receipt or FAQ answer calls it an estimate or
 * says someone confirms it later, in English or in French. The texts are the catalogues (screens,
 * FAQ, e-mails: src/locales/{lng}/*.json) and the code that writes e-mails and receipts.
 */

const SRC = path.resolve(__dirname, '..');
const LANGUAGES = ['en', 'fr'];

/** The words that make a price sound provisional. */
const PROVISIONAL = [
  /\bestimat/i, // estimate, estimated, estimation
  /\bestim[ée]/i, // estimé, estimée, estimés
  /\bapprox/i, // approximate, approximatif
  /\ban? admin(istrator)? (will )?confirms?\b/i,
  /\badministrateur (confirme|validera|valide)\b/i,
  /\bfinal amount\b/i,
  /\bmontant final\b/i,
];

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
function strings(value: Json, prefix: string, out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([prefix, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${prefix}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, `${prefix}.${k}`, out);
  return out;
}

const catalogueTexts = LANGUAGES.flatMap((lng) => readdirSync(path.join(__dirname, lng))
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => strings(JSON.parse(readFileSync(path.join(__dirname, lng, f), 'utf8')) as Json, `${lng}/${f.replace(/\.json$/, '')}`)));

/** The code that writes e-mails and receipts: its string literals (comments may name the old words to forbid them). */
const TEMPLATE_FILES = [
  ...readdirSync(path.join(SRC, 'server/modules/mail')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => `server/modules/mail/${f}`),
  'web/features/history/receipt.ts',
];
const literals = (code: string) => [...code.matchAll(/(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)].map((m) => m[2]!);

describe('the price is never called an estimate', () => {
  it('reads every catalogue in both languages', () => {
    expect(catalogueTexts.length).toBeGreaterThan(1000);
    expect(catalogueTexts.some(([key]) => key.startsWith('fr/public.faq'))).toBe(true);
  });

  it('in no catalogue (screens, FAQ, e-mails), English or French', () => {
    const offending = catalogueTexts.filter(([, text]) => PROVISIONAL.some((word) => word.test(text)));
    expect(offending).toEqual([]);
  });

  it('in no e-mail or receipt template', () => {
    const offending = TEMPLATE_FILES.flatMap((file) => literals(readFileSync(path.join(SRC, file), 'utf8'))
      .filter((text) => PROVISIONAL.some((word) => word.test(text))).map((text) => `${file}: ${text}`));
    expect(offending).toEqual([]);
  });

  it('would catch the words it forbids', () => {
    for (const text of [
      'The fee and rate are an estimate; an admin confirms the final amount.',
      'Estimated fee',
      'Les frais et le taux sont une estimation ; un administrateur confirme le montant final.',
      'Frais estimés',
    ]) expect(PROVISIONAL.some((word) => word.test(text)), text).toBe(true);
  });

  it('says one thing about the price, in both languages: it is fixed when the transfer is created', () => {
    const fixed = (lng: string) => catalogueTexts.find(([key]) => key === `${lng}/common.price.fixed`)?.[1];
    expect(fixed('en')).toMatch(/fixed when you create your transfer.*receipt shows exactly this price/);
    expect(fixed('fr')).toMatch(/fixés à la création de votre transfert.*reçu indique exactement ce prix/);
  });
});
