import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useE2eApp } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// An identity review after "ask for more" (docs/rules/know-your-sender.md#reviews), on a phone
// (390 px) and a desktop (1366 px), in English and French: the manager asks again for the ID card's
// back only; the sender's page keeps the front and the selfie and asks for the back alone, from the
// camera or a file; the manager then sees the new back current, the old one superseded beside it,
// and no decision chosen in advance.

const app = useE2eApp({ smtp: true });
const MANAGER = { email: 'kyc-more-reviewer@example.test', password: 'Steady-Lambarene-Lane-7', full_name: 'Rita Reviewer' };

const WORDS = {
  en: {
    uploaded: 'Uploaded', submit: 'Submit for review', askMore: 'Ask for more', back: 'ID card, back', askButton: 'Ask the sender',
    note: 'A photo of the back without glare, please.', actionNeeded: 'Action needed', current: 'Current', superseded: 'Superseded',
    keptFront: 'Front of your ID card', keptSelfie: 'A selfie: your face, clearly lit', takePhoto: 'Take a photo', chooseFile: 'Choose a file',
  },
  fr: {
    uploaded: 'Envoyé', submit: 'Envoyer pour vérification', askMore: 'Demander un complément', back: 'Carte d’identité, verso', askButton: 'Demander à l’expéditeur',
    note: 'Une photo du verso sans reflet, s’il vous plaît.', actionNeeded: 'Action requise', current: 'Actuel', superseded: 'Remplacé',
    keptFront: 'Recto de votre carte d’identité', keptSelfie: 'Un selfie\u00a0: votre visage, bien éclairé', takePhoto: 'Prendre une photo', chooseFile: 'Choisir un fichier',
  },
} as const;
type Lang = keyof typeof WORDS;

async function photo(name: string, rgb: [number, number, number]) {
  const buffer = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).jpeg().toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/** Uploads a slot's file through "Choose a file" (the picker without capture) and waits for it to be taken. */
async function chooseFile(page: Page, slot: string, file: Awaited<ReturnType<typeof photo>>, uploaded: string) {
  const box = page.getByTestId(`verify-slot-${slot}`);
  await box.getByTestId(`verify-file-${slot}`).setInputFiles(file);
  await box.getByText(uploaded, { exact: true }).waitFor();
}

let manager: Page;
beforeAll(async () => {
  manager = await app.staffSignedIn('manager', MANAGER);
});
afterAll(async () => { await manager?.close(); });

/** The manager, in `lang` at `width`, opens the sender's open review. */
async function openReview(lang: Lang, width: number, name: string) {
  await manager.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  // The language as a link chooses it (`lng`), before the one the browser remembers.
  await manager.goto(`${app.server.url}/admin?tab=verification&lng=${lang}`);
  await manager.getByTestId('review-queue').getByRole('button', { name: new RegExp(name) }).click();
  const detail = manager.getByTestId('review-detail');
  await detail.getByTestId('review-doc-selfie').locator('img').waitFor();
  return detail;
}

const CASES = [
  { lang: 'en', width: 390, who: 'Ama Phone', phone: '+24177000031' },
  { lang: 'fr', width: 390, who: 'Inès Téléphone', phone: '+24177000032' },
  { lang: 'en', width: 1366, who: 'Kwame Desk', phone: '+24177000033' },
  { lang: 'fr', width: 1366, who: 'Élise Bureau', phone: '+24177000034' },
] as const;

describe('the review after "ask for more"', () => {
  it.each(CASES)('$lang at $width px: the sender sends only the back again; the reviewer sees it current, the old one superseded, no decision chosen', async ({ lang, width, who, phone }) => {
    const w = WORDS[lang];
    const tag = `${lang}-${width}`;
    const sender = { email: `more-${tag}@example.test`, password: 'Quiet-Tchibanga-Road-3', full_name: who };
    await app.senderExists(sender, phone, { level: 1 });
    const page = await app.signedInPage(sender, { width, ...(lang === 'fr' ? { locale: 'fr-FR' } : {}) });
    await page.goto(`${app.server.url}/verify`);
    await chooseFile(page, 'id_card_front', await photo('front.jpg', [30, 90, 160]), w.uploaded);
    await chooseFile(page, 'id_card_back', await photo('back.jpg', [160, 90, 30]), w.uploaded);
    await chooseFile(page, 'selfie', await photo('selfie.jpg', [200, 170, 140]), w.uploaded);
    await page.getByRole('button', { name: w.submit }).click();
    await page.getByTestId('verify-review-open').waitFor();

    // The manager asks again for the back only.
    let detail = await openReview(lang, width, who);
    expect(await detail.getByRole('radio', { checked: true }).count()).toBe(0);
    await detail.getByRole('radio', { name: w.askMore }).check();
    await detail.getByRole('checkbox', { name: w.back }).check();
    await detail.getByTestId('resend-choice').locator('..').locator('textarea').fill(w.note);
    await detail.getByRole('button', { name: w.askButton }).click();
    await expect.poll(() => manager.getByTestId('review-queue').getByRole('button', { name: new RegExp(who) }).count()).toBe(0);

    // The sender's page keeps the front and the selfie and asks for the back alone.
    await page.goto(`${app.server.url}/verify`);
    await page.getByTestId('verify-action-needed').getByText(w.actionNeeded).waitFor();
    const kept = page.getByTestId('verify-kept');
    await kept.getByText(w.keptFront).waitFor();
    await kept.getByText(w.keptSelfie).waitFor();
    expect(await page.locator('[data-testid^="verify-slot-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(['verify-slot-id_card_back']);
    expect(await page.locator('#verify-id-kind').count()).toBe(0);
    const back = page.getByTestId('verify-slot-id_card_back');
    await back.getByText(w.takePhoto).waitFor();
    await back.getByText(w.chooseFile).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    await shot(page, `kyc-ask-more-sender-${tag}`);
    await chooseFile(page, 'id_card_back', await photo('back2.jpg', [150, 100, 40]), w.uploaded);
    await page.getByRole('button', { name: w.submit }).click();
    await page.getByTestId('verify-review-open').waitFor();
    await page.close();

    // The reviewer: the new back current, the old one superseded, nothing chosen in advance.
    detail = await openReview(lang, width, who);
    const backs = detail.getByTestId('review-doc-id_card_back');
    await expect.poll(() => backs.count()).toBe(2);
    expect(await backs.evaluateAll((els) => els.map((e) => e.getAttribute('data-current')))).toEqual(['false', 'true']);
    await backs.nth(0).getByText(w.superseded, { exact: true }).waitFor();
    await backs.nth(1).getByText(w.current, { exact: true }).waitFor();
    expect(await detail.getByRole('radio', { checked: true }).count()).toBe(0);
    expect(await detail.getByTestId('decide-submit').isDisabled()).toBe(true);
    expect(await scrollWidth(manager)).toBeLessThanOrEqual(width);
    await shot(manager, `kyc-ask-more-review-${tag}`);
  });
});

describe('the admin\'s Quotes and Users tabs', () => {
  it('sets how long a corridor\'s quotes hold, refusing 0; shows the reviewer\'s two-step sign-in on and resets it through the app\'s dialog', async () => {
    const admin = await app.staffSignedIn('admin');
    for (const [lang, width] of [['en', 390], ['fr', 1366]] as const) {
      await admin.setViewportSize({ width, height: 900 });
      await admin.goto(`${app.server.url}/admin?tab=quotes&lng=${lang}`);
      // A fixed parity's day said as a day, not 1440 minutes.
      await admin.getByTestId('quote-validity-EUR_XAF').getByText(lang === 'en' ? 'Now 1 day' : 'Actuellement 1\u00a0jour', { exact: true }).waitFor();
      const row = admin.getByTestId('quote-validity-EUR_RWF');
      const minutes = row.getByRole('textbox');
      await minutes.fill('0');
      await row.getByRole('button').click();
      await row.getByRole('alert').getByText(lang === 'en' ? 'Enter a whole number of minutes from 1 to 10080 (a week).' : 'Indiquez un nombre entier de minutes entre 1 et 10080 (une semaine).').waitFor();
      await minutes.fill(lang === 'en' ? '45' : '30');
      await row.getByRole('button').click();
      await row.getByText(lang === 'en' ? 'Now 45 minutes' : 'Actuellement 30 minutes').waitFor();
      expect(await scrollWidth(admin)).toBeLessThanOrEqual(width);
      await shot(admin, `admin-quote-validity-${lang}-${width}`);
    }
    const audit = await app.sql<{ after: { minutes: number } }>(`select after from audit_log where action = 'quote_validity.update' and target_id = 'EUR_RWF' order by created_at`);
    expect(audit.map((a) => a.after.minutes)).toEqual([45, 30]);

    await admin.setViewportSize({ width: 390, height: 900 });
    await admin.goto(`${app.server.url}/admin?tab=users&lng=fr&q=${encodeURIComponent(MANAGER.email)}`);
    const user = admin.getByTestId('user-row').filter({ hasText: MANAGER.email });
    await user.getByTestId('two-step-status').getByText('Activée').waitFor();
    await user.getByRole('button', { name: /Réinitialiser la connexion en deux étapes/ }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText(MANAGER.email, { exact: false }).waitFor();
    await shot(admin, 'admin-users-two-step-reset-fr-390');
    await dialog.getByTestId('confirm-two-step-reset').click();
    await user.getByTestId('two-step-status').getByText('Désactivée').waitFor();
    expect((await app.sql(`select 1 from audit_log where action = 'profile.mfa_reset'`)).length).toBe(1);
    await shot(admin, 'admin-users-two-step-off-fr-390');
    await admin.close();
  });
});
