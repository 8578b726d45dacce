import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eApp } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// Identity reviews (docs/rules/know-your-sender.md#reviews), on a phone (390 px), in English and in
// French: a level-1 sender over the 30-day limit is told before paying, sends an ID card (front and
// back) and a selfie from the "Verify my identity" page, a manager approves in the Verification tab,
// the sender's limits rise on the dashboard and the transfer goes through.

const app = useE2eApp({ smtp: true });
const PHONE = 390;
const ENGLISH = { email: 'awa@example.test', password: 'Quiet-Port-Gentil-4', full_name: 'Awa Ndong' };
const FRENCH = { email: 'luc@example.test', password: 'Calme-Franceville-62', full_name: 'Luc Moussavou' };
const MANAGER = { email: 'reviewer@example.test', password: 'Steady-Oyem-Lane-9', full_name: 'Rose Reviewer' };

/** A small real photo (JPEG or PNG) of one colour, as a phone camera would hand it to the page. */
async function photo(name: string, format: 'jpeg' | 'png', rgb: [number, number, number]) {
  const image = sharp({ create: { width: 640, height: 400, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } });
  const buffer = await (format === 'jpeg' ? image.jpeg() : image.png()).toBuffer();
  return { name, mimeType: format === 'jpeg' ? 'image/jpeg' : 'image/png', buffer };
}

async function nearTheLimit(token: string) {
  await app.api('POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '900', currency: 'EUR',
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
  }, token);
}

async function askToSend(page: Page, labels: { phone: string; name: string; review: string }) {
  await page.goto(`${app.server.url}/transfer?direction=EUR_XAF&amount=200`);
  await page.getByLabel(labels.phone).fill('077 12 34 56');
  await page.getByLabel(labels.name).fill('Marie Nguema');
  await page.getByRole('button', { name: labels.review }).click();
}

/** On /verify: the ID card's two sides and a selfie, each uploaded and previewed, then submitted. */
async function sendDocuments(page: Page, words: { uploaded: string; submit: string }, tag: string) {
  await page.goto(`${app.server.url}/verify`);
  const files = {
    id_card_front: await photo('front.jpg', 'jpeg', [30, 90, 160]),
    id_card_back: await photo('back.jpg', 'jpeg', [160, 90, 30]),
    selfie: await photo('selfie.png', 'png', [200, 170, 140]),
  };
  for (const [slot, file] of Object.entries(files)) {
    const box = page.getByTestId(`verify-slot-${slot}`);
    // The camera, and beside it the files (no capture), which take a PDF but for a selfie.
    expect(await box.getByTestId(`verify-camera-${slot}`).getAttribute('capture')).toBe(slot === 'selfie' ? 'user' : 'environment');
    const files = box.getByTestId(`verify-file-${slot}`);
    expect(await files.getAttribute('capture')).toBeNull();
    expect(await files.getAttribute('accept')).toBe(slot === 'selfie' ? 'image/*' : 'image/*,application/pdf');
    await files.setInputFiles(file);
    await box.getByText(words.uploaded, { exact: true }).waitFor();
    await box.getByTestId('verify-preview').waitFor();
  }
  expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
  await shot(page, `kyc-verify-ready-${tag}-390`);
  await page.getByRole('button', { name: words.submit }).click();
  await page.getByTestId('verify-review-open').waitFor();
  await shot(page, `kyc-verify-submitted-${tag}-390`);
}

/** The manager opens the sender's review in the Verification tab and approves it (or asks for more, with a note). */
let managerMade = false;
async function managerApproves(name: string, tag: string, more?: string) {
  let page: Page;
  if (managerMade) {
    page = await app.page({ width: PHONE });
    await app.signIn(page, MANAGER);
  } else {
    page = await app.staffSignedIn('manager', MANAGER);
    managerMade = true;
  }
  await page.setViewportSize({ width: PHONE, height: 844 });
  await page.goto(`${app.server.url}/admin?tab=verification`);
  const queue = page.getByTestId('review-queue');
  await queue.getByRole('button', { name: new RegExp(name) }).click();
  const detail = page.getByTestId('review-detail');
  await detail.getByTestId('review-doc-id_card_front').locator('img').waitFor();
  await detail.getByTestId('review-doc-selfie').locator('img').waitFor();
  expect(await detail.innerText()).toContain(name);
  // Only the card's back carries a machine-readable zone: the front and the selfie show no MRZ panel.
  const mrzPanels = (slot: string) => detail.getByTestId(`review-doc-${slot}`).locator('[data-testid^="mrz-panel-"]');
  await mrzPanels('id_card_back').waitFor();
  expect(await mrzPanels('id_card_front').count()).toBe(0);
  expect(await mrzPanels('selfie').count()).toBe(0);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
  await shot(page, `kyc-review-detail-${tag}-390`);
  // No decision is chosen before the reviewer chooses one.
  expect(await detail.getByRole('radio', { checked: true }).count()).toBe(0);
  expect(await detail.getByTestId('decide-submit').isDisabled()).toBe(true);
  if (more) {
    await detail.getByRole('radio', { name: 'Ask for more' }).check();
    await detail.getByRole('checkbox', { name: 'ID card, back' }).check();
    await detail.getByLabel('What the sender must send (shown as “action needed”)').fill(more);
    await detail.getByRole('button', { name: 'Ask the sender' }).click();
  } else {
    await detail.getByRole('radio', { name: 'Approve' }).check();
    await detail.getByRole('button', { name: 'Approve' }).click();
  }
  await expect.poll(() => page.getByRole('button', { name: new RegExp(name) }).count()).toBe(0);
  await page.close();
}

const ASKED = { email: 'kofi@example.test', password: 'Patient-Mouila-Road-5', full_name: 'Kofi Asked' };

beforeAll(async () => {
  await app.senderExists(ASKED, '+24177000013', { level: 1 });
  await nearTheLimit(await app.senderExists(ENGLISH, '+24177000011', { level: 1 }));
  await nearTheLimit(await app.senderExists(FRENCH, '+24177000012', { level: 1 }));
});

describe('a level-1 sender raises the limit with an identity review, on a phone', () => {
  it('in English: refused before paying, documents sent, approved by a manager, then the transfer goes through', async () => {
    const page = await app.signedInPage(ENGLISH, { width: PHONE });
    await askToSend(page, { phone: 'Recipient phone number', name: 'Recipient name (optional)', review: 'Review transfer' });
    await page.getByText('This transfer is over your limit for the last 30 days: €100.00 is left. Send less, or verify your identity to raise your limits.').first().waitFor();
    expect(await page.getByRole('heading', { name: 'Review and confirm' }).count()).toBe(0);
    await shot(page, 'kyc-review-refused-en-390');

    await page.goto(`${app.server.url}/dashboard`);
    await page.getByTestId('kyc-verify-link').click();
    await page.waitForURL(/\/verify$/);
    await sendDocuments(page, { uploaded: 'Uploaded', submit: 'Submit for review' }, 'en');

    await managerApproves(ENGLISH.full_name, 'en');

    await page.goto(`${app.server.url}/dashboard`);
    const card = page.getByTestId('kyc-card');
    await card.getByRole('heading', { name: 'Your sending limits (level 2)' }).waitFor();
    expect(await card.getByTestId('kyc-window-30d').innerText()).toContain('€6,100.00 left');
    await shot(page, 'kyc-review-dashboard-level2-en-390');

    await askToSend(page, { phone: 'Recipient phone number', name: 'Recipient name (optional)', review: 'Review transfer' });
    await page.getByRole('heading', { name: 'Review and confirm' }).waitFor();
    await page.getByRole('button', { name: /^Confirm and pay/ }).click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
    await page.close();
  });

  it('in French: the same steps in French', async () => {
    const page = await app.signedInPage(FRENCH, { width: PHONE, locale: 'fr-FR' });
    await askToSend(page, { phone: 'Numéro de téléphone du bénéficiaire', name: 'Nom du bénéficiaire (facultatif)', review: 'Vérifier le transfert' });
    await page.getByText(/Ce transfert dépasse votre plafond sur 30 jours\s:\sil vous reste 100,00\s€\. Envoyez moins, ou faites vérifier votre identité pour relever vos plafonds\./).first().waitFor();
    await shot(page, 'kyc-review-refused-fr-390');

    await page.goto(`${app.server.url}/profile`);
    await page.getByTestId('profile-verify-link').click();
    await page.waitForURL(/\/verify$/);
    await page.getByRole('heading', { name: 'Vérifier mon identité' }).waitFor();
    await sendDocuments(page, { uploaded: 'Envoyé', submit: 'Envoyer pour vérification' }, 'fr');

    await managerApproves(FRENCH.full_name, 'fr');

    await page.goto(`${app.server.url}/dashboard`);
    await page.getByTestId('kyc-card').getByRole('heading', { name: /niveau 2/ }).waitFor();
    await shot(page, 'kyc-review-dashboard-level2-fr-390');
    await askToSend(page, { phone: 'Numéro de téléphone du bénéficiaire', name: 'Nom du bénéficiaire (facultatif)', review: 'Vérifier le transfert' });
    await page.getByRole('button', { name: /^Confirmer et payer/ }).click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
    await page.close();
  });

  it('when the manager asks for more, the dashboard says "Action needed" with what to send, and links to the page', async () => {
    const page = await app.signedInPage(ASKED, { width: PHONE });
    await sendDocuments(page, { uploaded: 'Uploaded', submit: 'Submit for review' }, 'asked');
    await managerApproves(ASKED.full_name, 'asked', 'A sharper photo of the back of your card, please.');
    await page.goto(`${app.server.url}/dashboard`);
    const notice = page.getByTestId('verify-action-needed');
    await notice.getByText('Action needed').waitFor();
    expect(await notice.innerText()).toContain('We need more to verify your identity: A sharper photo of the back of your card, please.');
    await page.getByTestId('kyc-verify-link').waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
    await shot(page, 'kyc-review-action-needed-390');
    await page.close();
  });
});
