import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, type E2eApp } from '../support/fixtures.js';
import { shot } from '../support/screenshots.js';

// The audit log as a compliance officer reads it at 1366 px, in English and French
// (docs/rules/back-office.md#audit): an identity review named by its sender and level, never an
// id; its decision and levels in words; a sitting over the sender's documents as one row.

const SENDER = { email: 'chloe.dupont@example.test', password: 'Chloe-Sends-Home-2026', full_name: 'Chloé Dupont' };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/;

const WORDS = {
  en: {
    viewed: 'Identity documents viewed', decided: 'Identity review decided', review: 'Identity review · Level 2 ·',
    status: 'Status: Waiting for a decision → Approved', decision: 'Decision: Approved', level: 'Identity level: Level 0 → Level 2', sender: `Sender: ${SENDER.full_name} (${SENDER.email})`,
  },
  fr: {
    viewed: 'Pièces d’identité consultées', decided: 'Vérification d’identité tranchée', review: 'Vérification d’identité · Niveau 2 ·',
    status: 'Statut\u00a0: En attente de décision → Approuvée', decision: 'Décision\u00a0: Approuvée', level: 'Niveau d’identité\u00a0: Niveau 0 → Niveau 2', sender: `Client\u00a0: ${SENDER.full_name} (${SENDER.email})`,
  },
} as const;

export function describeAuditLog(app: E2eApp): void {
  async function upload(token: string, fields: Record<string, string>) {
    const image = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } } }).jpeg().toBuffer();
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'photo.jpg');
    const res = await fetch(`${app.server.url}/api/kyc/documents`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  }

  describe('the audit log in Chromium at 1366 px', () => {
    it('names a review by its sender and level, says its decision in words, and writes one row for a sitting over the documents', async () => {
      const senderToken = await app.senderExists(SENDER, '+24177000101', { level: 0 });
      const docs = [await upload(senderToken, { kind: 'passport' }), await upload(senderToken, { kind: 'selfie' })];
      const { data: review } = await app.api<{ data: { id: string } }>('POST', '/api/kyc/reviews', { level: 2 }, senderToken);
      const admin = await app.tokenFor(BOOTSTRAP_ADMIN);
      // The reviewer opens each image twice: one sitting.
      for (const id of [...docs, ...docs]) {
        const res = await fetch(`${app.server.url}/api/kyc/documents/${id}`, { headers: { authorization: `Bearer ${admin}` } });
        expect(res.status).toBe(200);
      }
      await app.api('POST', `/api/kyc/reviews/${review.id}/decision`, { decision: 'approve', note: '' }, admin);

      const page = await app.staffSignedIn('admin');
      await page.setViewportSize({ width: 1366, height: 900 });
      for (const lng of ['en', 'fr'] as const) {
        const w = WORDS[lng];
        await page.goto(`${app.server.url}/admin?tab=audit&lng=${lng}`);
        const rows = page.locator('main').getByTestId('audit-row').filter({ hasText: SENDER.full_name });
        const decided = rows.filter({ hasText: w.decided });
        await decided.getByText(w.decision, { exact: true }).waitFor();
        await decided.getByText(w.status, { exact: true }).waitFor();
        await decided.getByText(w.level, { exact: true }).waitFor();
        await decided.getByText(w.sender, { exact: true }).waitFor();
        expect(await decided.textContent()).toContain(w.review);
        const viewed = rows.filter({ hasText: w.viewed });
        expect(await viewed.count()).toBe(1);
        expect(await viewed.textContent()).toContain(w.review);
        for (const row of [decided, viewed]) expect(await row.textContent()).not.toMatch(UUID);
        await shot(page, `audit-review-${lng}-1366`);
      }
      await page.context().close();
    });
  });
}
