import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance, type TFunction } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { ScreeningAlert } from '@core/api/screening-alerts';
import { AlertExplanation, AlertFacts, qualifierText } from './screening-alert-facts';

// A screening alert's facts and qualifiers in the staff member's words, English and French, from
// the real catalogues (docs/rules/screening.md#explanation): equal, different and missing dates of
// birth and a country, each with what it did to the score; the listed entry beside the person and
// the links to the transfer and the sender.

const catalogue = (lng: string, ns: string) => JSON.parse(readFileSync(`src/locales/${lng}/${ns}.json`, 'utf8')) as object;
const NBSP = '\u00A0';

async function i18nFor(lng: 'en' | 'fr') {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng, ns: ['admin', 'common'], defaultNS: 'admin', interpolation: { escapeValue: false },
    resources: { [lng]: { admin: catalogue(lng, 'admin'), common: catalogue(lng, 'common') } },
  });
  return i18n;
}

type Q = ScreeningAlert['explanation']['qualifiers'][number];
const q = (over: Partial<Q>): Q => ({ qualifier: 'birth_date', outcome: 'matches', effect: 'none', query: '1975-03-03', listed: '1975-03-03', before: 1, after: 1, ...over });
const CASES: Q[] = [
  q({}),
  q({ effect: 'raised', before: 0.8, after: 0.9 }),
  q({ outcome: 'differs', effect: 'lowered', query: '1990-01-01', after: 0.8 }),
  q({ outcome: 'differs', query: '1975-09-09' }),
  q({ outcome: 'unknown', query: null }),
  q({ outcome: 'unknown', listed: null }),
  q({ qualifier: 'country', outcome: 'matches', effect: 'raised', query: 'GA', listed: 'GA', before: 0.9, after: 0.92 }),
  q({ qualifier: 'country', outcome: 'differs', effect: 'lowered', query: 'FR', listed: 'GA, CM', before: 1, after: 0.95 }),
];

async function lines(lng: 'en' | 'fr') {
  const i18n = await i18nFor(lng);
  return CASES.map((c) => qualifierText(c, i18n.t as TFunction<'admin'>, lng));
}

describe('each qualifier in words', () => {
  it('English: matches, differs or unknown, then raised, lowered or unchanged and why', async () => {
    expect(await lines('en')).toEqual([
      'The date of birth matches (1975-03-03 / 1975-03-03): score unchanged (the name already scored 1.00)',
      'The date of birth matches (1975-03-03 / 1975-03-03): score raised (0.80 → 0.90)',
      'The date of birth differs (1990-01-01 / 1975-03-03): score lowered (1.00 → 0.80)',
      'The date of birth differs (1975-09-09 / 1975-03-03): score unchanged (less than a year apart: lists often give circa dates)',
      'The person\'s date of birth is unknown (listed: 1975-03-03): score unchanged (nothing to compare)',
      'The list gives no date of birth (the person\'s: 1975-03-03): score unchanged (nothing to compare)',
      'The country matches (GA / GA): score raised (0.90 → 0.92)',
      'The country differs (FR / GA, CM): score lowered (1.00 → 0.95)',
    ]);
  });
  it('French: « concorde », « diffère », « inconnue », score relevé, abaissé ou inchangé', async () => {
    expect(await lines('fr')).toEqual([
      `La date de naissance concorde (1975-03-03 / 1975-03-03)${NBSP}: score inchangé (le nom atteignait déjà 1,00)`,
      `La date de naissance concorde (1975-03-03 / 1975-03-03)${NBSP}: score relevé (0,80 → 0,90)`,
      `La date de naissance diffère (1990-01-01 / 1975-03-03)${NBSP}: score abaissé (1,00 → 0,80)`,
      `La date de naissance diffère (1975-09-09 / 1975-03-03)${NBSP}: score inchangé (moins d’un an d’écart${NBSP}: les listes donnent souvent des dates incertaines)`,
      `La date de naissance de la personne est inconnue (liste${NBSP}: 1975-03-03)${NBSP}: score inchangé (rien à comparer)`,
      `La liste ne donne pas de date de naissance (celle de la personne${NBSP}: 1975-03-03)${NBSP}: score inchangé (rien à comparer)`,
      `Le pays concorde (GA / GA)${NBSP}: score relevé (0,90 → 0,92)`,
      `Le pays diffère (FR / GA, CM)${NBSP}: score abaissé (1,00 → 0,95)`,
    ]);
  });
  it('never says "lowered" for a match', async () => {
    const en = await lines('en');
    CASES.forEach((c, i) => { if (c.outcome === 'matches') expect(en[i]).not.toMatch(/lowered|differs/); });
  });
});

const ALERT: ScreeningAlert = {
  id: '7d3c1f3e-0000-4000-8000-000000000001', subject: 'sender', trigger: 'profile', status: 'open', confirmation_proposed: false,
  screened: { name: 'Borislav Yevgenyevich Kazantsev', birth_date: '1961-03-14', country: 'RU' },
  sender: { profile_id: '7d3c1f3e-0000-4000-8000-000000000002', full_name: 'Borislav Kazantsev', email: 'b.k@example.test' },
  transfer: { id: '7d3c1f3e-0000-4000-8000-000000000003', reference: 'MT-ABC123', status: 'pending' },
  source: 'ofac_sdn', list_id: '7001', entry_id: 1, fingerprint: 'f', score: 1,
  listed: { kind: 'person', names: ['KAZANTSEV, Borislav Yevgenyevich', 'KAZANTSEV, Boris'], birth_dates: ['1961-03-14'], countries: ['RU'], programmes: ['RUSSIA-EO14024'] },
  explanation: {
    listed_name: 'KAZANTSEV, Borislav Yevgenyevich',
    matched: [{ query: 'kazantsev', listed: 'kazantsev', how: 'exact' }],
    qualifiers: [
      q({ query: '1961-03-14', listed: '1961-03-14' }),
      q({ qualifier: 'country', query: 'RU', listed: 'RU' }),
    ],
  },
  decided_by: null, decided_at: null, second_by: null, second_at: null, notes: [], created_at: '2026-11-26T10:00:00.000Z',
};

async function render(lng: 'en' | 'fr', alert: ScreeningAlert): Promise<string> {
  const i18n = await i18nFor(lng);
  const html = renderToStaticMarkup(
    <MemoryRouter><I18nextProvider i18n={i18n}><AlertFacts alert={alert} /><AlertExplanation alert={alert} /></I18nextProvider></MemoryRouter>,
  );
  return html;
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/[ \t\n]+/g, ' ');

describe('the alert card\'s facts', () => {
  it('shows the listed entry beside the person, and links to the transfer and the sender', async () => {
    const html = await render('en', ALERT);
    const en = text(html);
    expect(en).toContain('Date of birth 1961-03-14 1961-03-14');
    expect(en).toContain('Country / nationality RU RU');
    expect(en).toContain('Sanctions programmes — RUSSIA-EO14024');
    expect(en).toContain('KAZANTSEV, Borislav Yevgenyevich (and 1 other name)');
    expect(en).toContain('The date of birth matches (1961-03-14 / 1961-03-14): score unchanged (the name already scored 1.00)');
    expect(html).toContain('href="/admin?q=MT-ABC123"');
    expect(html).toContain('href="/admin?q=b.k%40example.test"');
    const fr = text(await render('fr', ALERT));
    expect(fr).toContain('Programmes de sanctions — RUSSIA-EO14024');
    expect(fr).toContain(`Le pays concorde (RU / RU)${NBSP}: score inchangé (le nom atteignait déjà 1,00)`);
  });
  it('says when the entry\'s details are no longer kept', async () => {
    expect(text(await render('en', { ...ALERT, listed: null }))).toContain('look it up as OFAC SDN #7001');
  });
});
