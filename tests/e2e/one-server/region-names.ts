import { describe, expect, it } from 'vitest';
import type { E2eApp } from '../support/fixtures.js';
import { shot } from '../support/screenshots.js';

// Issue 29: on a phone (390 px), a French reader picks the region of their address by the name they
// know (« Estuaire », not "Estuaire Province"); the profile keeps the data's name, so the English
// screens and staff read the same region.

const SENDER = { email: 'aline@example.test', password: 'Calme-Estuaire-42', full_name: 'Aline Mintsa' };

export function describeRegionNames(app: E2eApp): void {
  describe('the profile’s region in the reader’s language', () => {
    it('registering in French: Rwanda’s provinces read « Province de l’Est » … « Ville de Kigali »; the form keeps the data’s name', async () => {
      const page = await app.page({ locale: 'fr-FR', width: 390 });
      await page.goto(`${app.server.url}/register`);
      await page.getByRole('combobox', { name: 'Pays', exact: true }).fill('rwa');
      await page.getByRole('listbox').getByRole('option', { name: 'Rwanda', exact: true }).click();
      const state = page.getByTestId('state-select');
      await expect.poll(() => state.isEnabled()).toBe(true);
      expect((await state.locator('option').allInnerTexts()).slice(1)).toEqual([
        'Province de l’Est', 'Province de l’Ouest', 'Province du Nord', 'Province du Sud', 'Ville de Kigali',
      ]);
      await state.selectOption({ label: 'Ville de Kigali' });
      expect(await state.inputValue()).toBe('Kigali district');
      await page.close();
    });

    it('shows Gabon’s provinces in French, keeps the stored name, and reads it in English again', async () => {
      const token = await app.senderExists(SENDER, '+24177000009', { level: 1 });
      await app.api('PATCH', '/api/profiles/me', { state: 'Estuaire Province' }, token);

      const fr = await app.signedInPage(SENDER, { width: 390, locale: 'fr-FR' });
      await fr.goto(`${app.server.url}/profile`);
      const card = fr.getByTestId('identity-card');
      const state = card.getByTestId('identity-state');
      await card.getByRole('option', { name: 'Estuaire', exact: true }).waitFor({ state: 'attached' });
      const options = await state.locator('option').allInnerTexts();
      expect(options).toContain('Haut-Ogooué');
      expect(options.filter((o) => o.includes('Province'))).toEqual([]);
      expect(await state.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]!.text)).toBe('Estuaire');
      await state.selectOption({ label: 'Woleu-Ntem' });
      await shot(fr, 'region-names-profile-fr-390');
      await card.getByTestId('identity-save').click();
      await fr.getByText('Profil mis à jour').first().waitFor();
      await fr.close();

      const saved = await app.api<{ data: { state: string } }>('GET', '/api/profiles/me', undefined, token);
      expect(saved.data.state).toBe('Woleu-Ntem Province');

      const en = await app.signedInPage(SENDER, { width: 390 });
      await en.goto(`${app.server.url}/profile`);
      const enState = en.getByTestId('identity-card').getByTestId('identity-state');
      await en.getByTestId('identity-card').getByRole('option', { name: 'Woleu-Ntem Province' }).waitFor({ state: 'attached' });
      expect(await enState.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]!.text)).toBe('Woleu-Ntem Province');
      await en.close();
    });
  });
}
