import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, type E2eApp, type TransferRef } from '../support/fixtures.js';
import { shot } from '../support/screenshots.js';
import { sdnCsv } from '../../support/sanctions-files.js';

// Money frozen by a compliance close-out, as the admin reads it on the reconciliation board
// (docs/rules/screening.md#closing-out-a-confirmed-match), at 1366 and 390 px in English and
// French: the total per currency and the transfer behind it.

const SENDER = { email: 'frozen-sender@example.test', password: 'Frozen-Funds-Stay-2026', full_name: 'Boris Kessany' };
const MANAGER = { email: 'frozen-manager@example.test', password: 'Second-Pair-Of-Eyes-9', full_name: 'Mila Manager' };

const WORDS = {
  en: { title: 'Money frozen by compliance', total: 'EUR, 1 transfer', amount: '€120.00', closed: /^Closed out / },
  fr: { title: 'Fonds gelés par la conformité', total: 'EUR, 1 transfert', amount: /^120,00\s€$/, closed: /^Clôturé le / },
} as const;

export function describeFrozenMoney(app: E2eApp): void {
  async function importList(token: string): Promise<void> {
    const body = new FormData();
    body.append('source', 'ofac_sdn');
    body.append('files', new Blob([sdnCsv([{ ent_num: 9401, name: 'DRAGANOV, Kiril Petrov', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 1958.' }])], { type: 'text/csv' }), 'sdn.csv');
    const res = await fetch(`${app.server.url}/api/screening/lists`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });
    const { data } = await res.json() as { data: { id: string } };
    for (let tries = 0; (await app.api<{ data: { state: string } }>('GET', `/api/screening/lists/imports/${data.id}`, undefined, token)).data.state !== 'done'; tries++) {
      if (tries > 200) throw new Error('the list import did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  describe('money frozen by a close-out, on the reconciliation board', () => {
    it('shows the frozen total per currency and the transfer holding it (1366 px English, 390 px French)', async () => {
      const adminToken = await app.tokenFor(BOOTSTRAP_ADMIN);
      await importList(adminToken);
      const senderToken = await app.senderExists(SENDER, '+24177000401');
      const { data: held } = await app.api<{ data: TransferRef }>('POST', '/api/payments/initiate', {
        source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '120', currency: 'EUR',
        destination_details: { recipient_phone: '+241 77 61 62 74', recipient_name: 'Kiril Draganov' },
      }, senderToken);
      // The sender had paid: the payment stands received, as a capture leaves it.
      await app.sql(`update transfer_requests set payment_status = 'received', payment_amount = 120, payment_recorded_at = now() where id = $1`, [held.id]);
      const manager = await app.staffSignedIn('manager', MANAGER);
      await manager.context().close();
      const managerToken = await app.tokenFor(MANAGER);
      const { data: alerts } = await app.api<{ data: { id: string; transfer: { id: string } | null }[] }>('GET', '/api/screening/alerts?status=open', undefined, managerToken);
      const alert = alerts.find((a) => a.transfer?.id === held.id)!;
      await app.api('POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'confirmed', note: 'Same man.' }, adminToken);
      await app.api('POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'confirmed', note: 'Agreed.' }, managerToken);
      await app.api('POST', `/api/transfer-requests/${held.id}/close-out`, { reason: 'Confirmed match: funds frozen.' }, managerToken);
      await app.api('POST', `/api/transfer-requests/${held.id}/close-out/confirm`, {}, adminToken);

      const page = await app.staffSignedIn('admin');
      for (const [lng, width] of [['en', 1366], ['fr', 390]] as const) {
        const w = WORDS[lng];
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${app.server.url}/admin?tab=reconciliation&lng=${lng}`);
        const section = page.getByTestId('frozen-money');
        await section.getByRole('heading', { name: w.title }).waitFor();
        const total = section.getByTestId('frozen-total-EUR');
        expect(await total.locator('dt').innerText()).toBe(w.total);
        expect((await total.locator('dd').innerText()).trim()).toMatch(typeof w.amount === 'string' ? new RegExp(`^${w.amount.replace(/[.$]/g, '\\$&')}$`) : w.amount);
        const row = section.getByTestId('frozen-transfer');
        expect(await row.count()).toBe(1);
        const text = await row.innerText();
        expect(text).toContain(held.reference);
        expect(text).toContain(SENDER.full_name);
        expect(text.split('\n').some((line) => w.closed.test(line))).toBe(true);
        expect(await page.locator('main').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(width);
        await section.scrollIntoViewIfNeeded();
        await shot(page, `reconciliation-frozen-${lng}-${width}`);
      }
      await page.context().close();
    });
  });
}
