import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { MrzResult } from '@core/mrz';
import { MrzPanel } from './mrz-panel';

// The reviewer's view of a document's machine-readable zone, in English and French, from the
// real catalogues: read or not yet, each check digit, the profile's name and date of birth, expiry.

const catalogue = (lng: string, ns: string) => JSON.parse(readFileSync(`src/locales/${lng}/${ns}.json`, 'utf8')) as object;

async function render(lng: 'en' | 'fr', mrz: MrzResult | null): Promise<string> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng, ns: ['admin', 'common'], defaultNS: 'admin',
    resources: { [lng]: { admin: catalogue(lng, 'admin'), common: catalogue(lng, 'common') } },
  });
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}><MrzPanel documentId="7d3c1f3e-0000-4000-8000-000000000001" mrz={mrz} /></I18nextProvider>
    </QueryClientProvider>,
  );
}

const TYPED: MrzResult = {
  status: 'typed', format: 'TD3', valid: false, lines: ['P<FRADUPONT<<MARIE<<<<<<<<<<<<<<<<<<<<<<<<<<', '12AB345670FRA9002155F2401015<<<<<<<<<<<<<<00'],
  checks: { document_number: false, birth_date: true, expiry_date: true, personal_number: true, composite: true },
  document_code: 'P', issuing_state: 'FRA', document_number: '12AB34567', surname: 'DUPONT', given_names: 'MARIE', nationality: 'FRA',
  birth_date: '1990-02-15', expiry_date: '2024-01-01', expired: true, name_matches_profile: false, birth_date_matches_profile: true,
  read_at: '2026-11-26T10:00:00.000Z',
};

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the MRZ panel', () => {
  it('shows each check digit of a typed zone, the profile comparisons and that the document expired, with the form to type it again', async () => {
    const en = text(await render('en', TYPED));
    expect(en).toContain('Typed by staff');
    expect(en).toContain('Check digits wrong');
    expect(en).toMatch(/Document number wrong/);
    expect(en).toMatch(/Date of birth valid/);
    expect(en).toMatch(/DUPONT, MARIE differs from the profile/);
    expect(en).toContain('Expired');
    expect(en).toContain('Type the zone');
    const fr = text(await render('fr', TYPED));
    expect(fr).toContain('Clés de contrôle erronées');
    expect(fr).toMatch(/DUPONT, MARIE différent du profil/);
    expect(fr).toContain('Expiré');
  });

  it('says when the zone is not read yet or could not be read reliably', async () => {
    expect(text(await render('en', null))).toContain('Not read yet');
    const unreadable: MrzResult = { ...TYPED, status: 'unreadable', lines: [], checks: {}, valid: false };
    expect(text(await render('fr', unreadable))).toContain('La zone n’a pas pu être lue de façon fiable sur la photo');
    expect(text(await render('en', unreadable))).toContain('The zone could not be read reliably from the photo');
  });

  it('says a zone read from the photo whose check digits fail could not be read reliably, never "wrong" nor that the name differs', async () => {
    const misread: MrzResult = { ...TYPED, status: 'read' };
    const en = text(await render('en', misread));
    expect(en).toContain('Not read reliably');
    expect(en).toContain('The zone could not be read reliably from the photo');
    expect(en).not.toMatch(/wrong|differs/);
    const fr = text(await render('fr', misread));
    expect(fr).toContain('Pas lue de façon fiable');
    expect(fr).not.toMatch(/erron|différent/);
  });
});
