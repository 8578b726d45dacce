import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { IdentityCard } from './identity-card';
import type { MyProfile } from './profile-api';

// The identity card's labels as a person reads them, from the real catalogues: an optional field
// says so inside its label, in lower case in French (« État ou région (facultatif) »), never a
// capitalised word glued on by the code.

const catalogue = (lng: string, ns: string) => JSON.parse(readFileSync(`src/locales/${lng}/${ns}.json`, 'utf8')) as object;

async function labels(lng: 'en' | 'fr'): Promise<string[]> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng, ns: ['auth', 'common', 'validation'], defaultNS: 'auth',
    resources: { [lng]: { auth: catalogue(lng, 'auth'), common: catalogue(lng, 'common'), validation: catalogue(lng, 'validation') } },
  });
  const profile = { date_of_birth: null, address: null, city: null, state: null, country: null } as unknown as MyProfile;
  const html = renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}><IdentityCard profile={profile} /></I18nextProvider>
    </QueryClientProvider>,
  );
  return [...html.matchAll(/<label[^>]*>(.*?)<\/label>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim());
}

describe('the identity card', () => {
  it('writes the optional region in its label, lower case in French', async () => {
    expect(await labels('en')).toContain('State or region (optional)');
    const fr = await labels('fr');
    expect(fr).toContain('État ou région (facultatif)');
    for (const label of fr) expect(label, label).not.toMatch(/\([A-ZÀ-Ý][a-zà-ÿ]/);
  });
});
