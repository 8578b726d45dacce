import { describe, expect, it } from 'vitest';
import { useE2eApp } from './support/fixtures.js';
import { shot } from './support/screenshots.js';

// Transaction monitoring in Chromium, on a phone (390 px; docs/rules/monitoring.md): three
// transfers just under 1,000 EUR within days open a case; the admin reads it on the Compliance
// tab (the alert, the numbers compared, the transfers), takes it to investigating, closes it as
// reported and downloads the report's PDF; the rules' settings are edited there too. A manager
// who also sends money sees their own case as theirs, with no step offered.

const app = useE2eApp({ smtp: true });
const SENDER = { email: 'monitored-sender@example.test', password: 'Watched-Closely-For-Sure-7', full_name: 'Odile Structura' };
const PHONE = 390;

describe('a monitoring case in Chromium', () => {
  it('the admin works a structuring case to a report at 390 px, and edits a rule', async () => {
    const token = await app.senderExists(SENDER);
    const references: string[] = [];
    for (const amount of ['950', '960', '970']) {
      const { data } = await app.api<{ data: { reference: string } }>('POST', '/api/payments/initiate', {
        source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount, currency: 'EUR',
        destination_details: { recipient_phone: '+241 77 55 44 33', recipient_name: 'Jean Ndong' },
      }, token);
      references.push(data.reference);
    }

    const page = await app.staffSignedIn('admin');
    await page.setViewportSize({ width: PHONE, height: 844 });
    await page.goto(`${app.server.url}/admin?tab=compliance`);
    const cases = page.getByRole('region', { name: 'Monitoring cases' });
    const card = cases.getByRole('listitem').filter({ hasText: SENDER.full_name });
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain('Structuring');
    await shot(page, 'monitoring-cases-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);

    await card.getByRole('button', { name: 'View' }).click();
    const detail = page.getByTestId('case-detail');
    const alert = detail.getByTestId('alert-structuring');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Transfers just under a limit: 3');
    expect(await alert.textContent()).toContain('Held');
    for (const reference of references) expect(await detail.textContent()).toContain(reference);
    await shot(page, 'monitoring-case-detail-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);

    const step = detail.getByRole('form', { name: 'Next step' });
    await step.getByLabel('Note').fill('Asked for the source of these funds.');
    await step.getByRole('button', { name: 'Save the step' }).click();
    await detail.getByText('Investigating').first().waitFor();
    await step.getByLabel('Outcome').selectOption('reported');
    await step.getByLabel('Note').fill('No explanation given: reported.');
    await step.getByRole('button', { name: 'Save the step' }).click();
    const pdf = detail.getByRole('button', { name: 'Download the report (PDF)' });
    await pdf.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), pdf.click()]);
    expect(download.suggestedFilename()).toMatch(/^str-report-.*\.pdf$/);
    expect(await alert.textContent()).toContain('Hold released');
    await shot(page, 'monitoring-case-reported-390');

    // The rules: the admin lowers structuring's count to 2 and saves it.
    const rule = page.getByTestId('rule-structuring');
    await rule.getByLabel('Transfers (at least)').fill('2');
    await rule.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The rule was saved.').first().waitFor();
    const { data: rules } = await app.api<{ data: { rule: string; thresholds: Record<string, unknown> }[] }>('GET', '/api/monitoring/rules', undefined, await app.tokenFor({ email: 'admin@example.test', password: 'Bootstrap-Staff-Key-1' }));
    expect(rules.find((r) => r.rule === 'structuring')!.thresholds.min_transfers).toBe(2);
    await shot(page, 'monitoring-rules-390');
  });

  it('a manager who is also a sender sees their own case as theirs, with no step to take (docs/rules/back-office.md#no-one-decides-on-their-own-case)', async () => {
    const MANAGER = { email: 'monitored-manager@example.test', password: 'Not-My-Own-Judge-8', full_name: 'Mathis Selfcase' };
    const page = await app.staffSignedIn('manager', MANAGER);
    const token = await app.tokenFor(MANAGER);
    for (const amount of ['950', '960', '970']) {
      await app.api('POST', '/api/payments/initiate', {
        source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount, currency: 'EUR',
        destination_details: { recipient_phone: '+241 77 55 44 34', recipient_name: 'Jean Ndong' },
      }, token);
    }
    await page.goto(`${app.server.url}/admin?tab=compliance`);
    const card = page.getByRole('region', { name: 'Monitoring cases' }).getByRole('listitem').filter({ hasText: MANAGER.full_name });
    await card.waitFor();
    await card.getByText('Concerns you').waitFor();
    await card.getByRole('button', { name: 'View' }).click();
    const detail = page.getByTestId('case-detail');
    await detail.getByTestId('own-case').waitFor();
    expect(await detail.getByTestId('own-case').textContent()).toBe('This case is about you or your transfers: another staff member handles it.');
    expect(await detail.getByRole('form', { name: 'Next step' }).count()).toBe(0);
  });
});
