import { describe, expect, it } from 'vitest';
import { useE2eApp } from './support/fixtures.js';
import { shot } from './support/screenshots.js';
import { sdnCsv } from '../support/sanctions-files.js';

// Sanctions screening in Chromium, on a phone (390 px; docs/rules/screening.md#holds-and-alerts):
// the admin sees that nobody is screened, imports an OFAC-format list on the Compliance tab; a
// sender sends to a listed name and is told only that the transfer is being checked; a manager
// reads the alert with its explanation on the Compliance tab and clears it as a false positive;
// the transfer can then be processed.

const app = useE2eApp({ smtp: true });
const PHONE = 390;
const SENDER = { email: 'screened-sender@example.test', password: 'Checked-By-The-Lists-42', full_name: 'Inès Ondo' };
const MANAGER = { email: 'screening-manager@example.test', password: 'Decides-Alerts-Carefully-9', full_name: 'Marc Manager' };
const SDN = sdnCsv([
  { ent_num: 9101, name: 'VOLKOVITSKY, Radomir Stanislavovich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 02 Feb 1958.' },
  { ent_num: 9102, name: 'ACME SHIPPING HOLDINGS LTD', programs: ['IRAN'] },
]);

describe('a transfer held by sanctions screening in Chromium', () => {
  it('import, hold, explained alert, false positive, then processed — at 390 px', async () => {
    const admin = await app.staffSignedIn('admin');
    await admin.setViewportSize({ width: PHONE, height: 844 });
    await admin.goto(`${app.server.url}/admin?tab=compliance`);
    const message = admin.getByTestId('screening-message');
    // The first load of the back office may take longer than a poll's second on a busy machine.
    await message.waitFor();
    await expect.poll(() => message.textContent()).toMatch(/nobody is being screened/);
    await shot(admin, 'screening-nobody-screened-390');

    await admin.getByLabel('List', { exact: true }).selectOption('ofac_sdn');
    await admin.getByLabel('Official file(s)').setInputFiles({ name: 'sdn.csv', mimeType: 'text/csv', buffer: Buffer.from(SDN) });
    await admin.getByRole('button', { name: 'Import', exact: true }).click();
    await admin.getByText('Imported: 2 entries').waitFor();
    await expect.poll(() => message.textContent()).toMatch(/Screening against OFAC SDN/);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
    await shot(admin, 'screening-list-imported-390');

    const token = await app.senderExists(SENDER);
    const { data: transfer } = await app.api<{ data: { id: string; reference: string; on_hold?: boolean } }>('POST', '/api/payments/initiate', {
      source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '120', currency: 'EUR',
      destination_details: { recipient_phone: '+241 77 61 62 63', recipient_name: 'Radomir Volkovitsky' },
    }, token);
    expect(transfer.on_hold).toBe(true);
    const sender = await app.signedInPage(SENDER, { width: PHONE });
    await sender.goto(`${app.server.url}/pay/${transfer.id}`);
    await sender.getByText('We\'re checking your transfer').first().waitFor();
    const seen = await sender.locator('main').textContent();
    expect(seen).not.toMatch(/VOLKOVITSKY|OFAC|sanction|score/i);
    await shot(sender, 'screening-sender-checking-390');

    const manager = await app.staffSignedIn('manager', MANAGER);
    await manager.setViewportSize({ width: PHONE, height: 844 });
    await manager.goto(`${app.server.url}/admin?tab=compliance`);
    const alerts = manager.getByRole('region', { name: 'Screening alerts' });
    const card = alerts.getByRole('listitem').filter({ hasText: transfer.reference });
    await card.waitFor();
    const text = await card.textContent();
    expect(text).toContain('Radomir Stanislavovich VOLKOVITSKY · OFAC SDN #9101');
    expect(text).toContain('Why it matched');
    expect(text).toMatch(/radomir → radomir|volkovitsky → volkovitsky/i);
    // The listed entry's facts beside the recipient's, each qualifier said as it is, and a link to the transfer.
    expect(await card.getByTestId('listed-birth-dates').textContent()).toBe('1958-02-02');
    expect(await card.getByTestId('listed-programmes').textContent()).toBe('RUSSIA-EO14024');
    expect(text).toContain('The person\'s date of birth is unknown (listed: 1958-02-02): score unchanged (nothing to compare)');
    expect(await card.getByRole('link', { name: `Open transfer ${transfer.reference} in the queue` }).getAttribute('href')).toBe(`/admin?q=${transfer.reference}`);
    expect(await manager.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
    await shot(manager, 'screening-alert-390');

    const refused = await app.request('PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'processing' }, await app.tokenFor(MANAGER));
    expect(refused.status).toBe(409);

    await card.getByLabel('Decision').selectOption('false_positive');
    await card.getByLabel('Note (why)').fill('Born 1991 in Oyem: not the listed man.');
    await card.getByRole('button', { name: 'Record the decision' }).click();
    await alerts.getByText('No alert here.').waitFor();
    await shot(manager, 'screening-cleared-390');

    const moved = await app.request('PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'processing' }, await app.tokenFor(MANAGER));
    expect(moved.status).toBe(200);
    await sender.reload();
    await expect.poll(async () => (await sender.locator('main').textContent()) ?? '').not.toContain('We\'re checking your transfer');
  });
});
