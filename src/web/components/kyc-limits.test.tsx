import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { KycStatus } from '@web/lib/kyc';
import { kycKeys } from '@web/lib/kyc';
import { KycTransferNotice } from './kyc-limits';

// A level-0 account above the transfer form, in English and French from the real catalogues:
// told what to add to the profile, or, when the profile is complete and only the sender's own
// screening has not run yet, that we are checking their name (docs/rules/know-your-sender.md#levels).

const catalogue = (lng: string, ns: string) => JSON.parse(readFileSync(`src/locales/${lng}/${ns}.json`, 'utf8')) as object;

async function render(lng: 'en' | 'fr', provide: string[]): Promise<string> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng, ns: ['transfer', 'errors'], defaultNS: 'transfer',
    resources: { [lng]: { transfer: catalogue(lng, 'transfer'), errors: catalogue(lng, 'errors') } },
  });
  const client = new QueryClient();
  const status = { level: 0, windows: [], next: { level: 1, provide }, open_review: null } as unknown as KycStatus;
  client.setQueryData(kycKeys.me, status);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}><MemoryRouter><KycTransferNotice /></MemoryRouter></I18nextProvider>
    </QueryClientProvider>,
  );
  // Only ASCII spaces collapsed: French no-break spaces stay as written.
  return html.replace(/<[^>]+>/g, ' ').replace(/[ \t\n]+/g, ' ');
}

describe('the level-0 notice', () => {
  it('names the profile fields to add, with the link to the profile', async () => {
    const en = await render('en', ['date_of_birth', 'address']);
    expect(en).toContain('Before your first transfer, add: date of birth, address.');
    expect(en).toContain('Complete my profile');
  });

  it('says the name is being checked, with nothing to add, when only the screening has not run', async () => {
    const en = await render('en', ['screening']);
    expect(en).toContain('We are checking your name');
    expect(en).toContain('has not finished for you yet: come back in a few minutes.');
    expect(en).not.toContain('Complete my profile');
    const fr = await render('fr', ['screening']);
    expect(fr).toContain('Nous vérifions votre nom');
    expect(fr).toContain('n’est pas encore terminée pour vous\u00a0: revenez dans quelques minutes.');
  });
});
