import { describe, expect, it } from 'vitest';
import { ECB_THREE_DAYS } from '../../support/ecb-rates-file.js';
import { BOOTSTRAP_ADMIN, type E2eApp } from '../support/fixtures.js';
import { seriousViolations, withAxe } from '../support/axe.js';
import { scrollWidth } from '../support/layout.js';
import { shot } from '../support/screenshots.js';

// The admin's rates on a phone (docs/rules/fees-and-rates.md#rate-sources): each rate's reference,
// ours, margin and age; an RWF reference entered by staff shows our margin against it; the ECB's
// file uploaded sets EUR→USD's reference.

const PHONE = 390;

export function describeRateSources(app: E2eApp): void {
  describe('the admin\'s rates, on a phone', () => {
    it('EUR↔XAF against the legal parity; the EUR→RWF reference entered by staff shows our margin; the ECB file sets EUR→USD', async () => {
      const page = await withAxe(await app.signedInPage(BOOTSTRAP_ADMIN, { width: PHONE }));
      await page.goto(`${app.server.url}/admin?tab=rates`);
      const xaf = page.getByTestId('rate-EUR_XAF');
      await xaf.getByText('655.957 (legal parity)').waitFor();
      expect(await xaf.getByTestId('rate-EUR_XAF-facts').innerText()).toMatch(/Margin\s+0\.1459\s%/);
      expect(await page.getByRole('textbox', { name: 'Maximum age of a rate (hours)' }).inputValue()).toBe('36');

      const rwf = page.getByRole('form', { name: 'EUR→RWF rate' });
      await rwf.getByRole('textbox', { name: 'Reference: 1 EUR in RWF' }).fill('1414.14');
      await rwf.getByRole('button', { name: 'Save' }).click();
      await rwf.getByText('1414.14 (entered by staff)').waitFor();
      expect(await page.getByTestId('rate-EUR_RWF-facts').innerText()).toMatch(/Margin\s+0\.9999\s%/);

      // The ECB's file of three days: the latest (1.0512 USD per EUR) becomes EUR→USD's reference.
      await page.getByLabel('ECB reference rates file').setInputFiles({ name: 'eurofxref-hist-90d.xml', mimeType: 'text/xml', buffer: Buffer.from(ECB_THREE_DAYS) });
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByText('ECB rates imported').first().waitFor();
      await page.getByTestId('rate-EUR_USD').getByText('1.0512 (European Central Bank)').waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, 'rates-admin-390');
      await page.close();
    });
  });
}
