import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@core/money';
import { BOOTSTRAP_ADMIN, useE2eApp } from './support/fixtures.js';
import { shot } from './support/screenshots.js';

// A quote is a promise (docs/rules/fees-and-rates.md) and the price before the confirm button, as a sender sees them on a phone (390 px),
// in English and French: type what the recipient gets and see what to pay, review the price
// (above the confirm button) with its time left, let it run out, get a new price, confirm; the
// payment page shows exactly the price; no screen calls it an estimate.
const app = useE2eApp({ smtp: true });
const WIDTH = 390;
const SENDERS = {
  en: { email: 'ines@example.test', password: 'Oyem-Forest-Walk-2026', full_name: 'Ines Ondo' },
  fr: { email: 'lucie@example.test', password: 'Franceville-Pluie-2026', full_name: 'Lucie Mintsa' },
};
const NO_ESTIMATE = /estimat|estimé|admin(istrator)? confirms|administrateur confirme|montant final|final amount/i;

// 100,000 XAF from USD at the seeded 1 USD = 610 XAF: $163.94 is the least that delivers it
// (163.94 × 610 = 100,003.4 → 100,003 XAF; $163.93 would give 99,997). Its tier is 3.9 %: fee $6.39.
const WORDS = {
  en: {
    locale: 'en-US', typedPayout: '100,000', amountField: '163.94', rate: 'Rate: 1 USD = 610 XAF', formRate: '1 USD = 610 XAF',
    phone: 'Recipient phone number', review: 'Review transfer', confirm: /^Confirm and pay /,
    held: /^This price is held for you for (29:[0-5]\d|30:00)\.$/, expired: 'This price has expired.',
    newPrice: 'Get a new price', newTitle: 'A new price', accept: 'Accept this price', priceTitle: 'Your price',
    fixed: 'The fee and rate are fixed when you create your transfer, and your receipt shows exactly this price.',
  },
  fr: {
    locale: 'fr-FR', typedPayout: '100 000', amountField: '163,94', rate: 'Taux\u00a0: 1 USD = 610 XAF', formRate: '1 USD = 610 XAF',
    phone: 'Numéro de téléphone du bénéficiaire', review: 'Vérifier le transfert', confirm: /^Confirmer et payer /,
    held: /^Ce prix vous est garanti pendant (29:[0-5]\d|30:00)\.$/, expired: 'Ce prix a expiré.',
    newPrice: 'Obtenir un nouveau prix', newTitle: 'Un nouveau prix', accept: 'Accepter ce prix', priceTitle: 'Votre prix',
    fixed: 'Les frais et le taux sont fixés à la création de votre transfert, et votre reçu indique exactement ce prix.',
  },
} as const;

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).first().innerText()).trim();
/** What the page shows, said nowhere to be an estimate. */
async function saysNoEstimate(page: Page, where: string) {
  expect(await page.locator('body').innerText(), where).not.toMatch(NO_ESTIMATE);
}
/** The sender's unused quotes run out on the server's clock (the server decides expiry). */
async function expireQuotes(email: string) {
  const rows = await app.sql<{ id: string }>(
    `update quotes set expires_at = now() - interval '1 second'
      where used_at is null and expires_at > now() and profile_id = (select id from profiles where email = $1) returning id`, [email]);
  expect(rows.length).toBeGreaterThan(0);
}

let admin = '';
beforeAll(async () => {
  for (const sender of Object.values(SENDERS)) await app.senderExists(sender);
  admin = await app.tokenFor(BOOTSTRAP_ADMIN);
});

/** Sets the fee of a USD → XAF tier starting at `from`, as an admin does. */
async function setTierFee(from: string, percentage: string) {
  const { data } = await app.api<{ data: { id: string; direction: string; min_amount: string }[] }>('GET', '/api/fees');
  const tier = data.find((t) => t.direction === 'USD_XAF' && Number(t.min_amount) === Number(from))!;
  await app.api('PATCH', `/api/fees/${tier.id}`, { percentage }, admin);
}

describe('a quote is a promise, on a phone', () => {
  for (const lng of ['en', 'fr'] as const) {
    const w = WORDS[lng];
    const money = (minor: number, currency: 'USD' | 'XAF') => formatMoney(minor, currency, lng);

    it(`${lng === 'en' ? 'in English' : 'in French'}: what the recipient gets → what to pay → review with its countdown → it runs out → a new price → confirmed at exactly that price`, async () => {
      const sender = SENDERS[lng];
      const page = await app.signedInPage(sender, { locale: w.locale, width: WIDTH });
      // The page's clock is moved below, as a sender's time passes.
      await page.clock.install();

      // The home calculator: what the recipient gets is typed, what to pay is filled in.
      await page.goto(`${app.server.url}/?lng=${lng}`, { waitUntil: 'networkidle' });
      await page.getByTestId('calculator-payout').fill(w.typedPayout);
      await expect.poll(() => page.getByTestId('calculator-amount').inputValue()).toBe(w.amountField);
      await expect.poll(() => text(page, 'calc-total')).toBe(money(17033, 'USD'));
      expect(await text(page, 'calc-they-get')).toBe(money(100003, 'XAF'));
      expect(await text(page, 'calc-rate')).toBe(w.rate);
      expect(await text(page, 'price-fixed')).toContain(w.fixed);
      await saysNoEstimate(page, 'home');
      await shot(page, `quotes-calculator-${lng}-390`);

      // The transfer form: the same, from "They receive".
      await page.goto(`${app.server.url}/transfer?direction=USD_XAF&lng=${lng}`);
      await page.getByTestId('transfer-payout').fill(w.typedPayout);
      await expect.poll(() => page.getByTestId('transfer-amount').inputValue()).toBe(w.amountField);
      await expect.poll(() => text(page, 'summary-total')).toBe(money(17033, 'USD'));
      expect(await text(page, 'summary-fee')).toBe(money(639, 'USD'));
      expect(await text(page, 'summary-payout')).toBe(money(100003, 'XAF'));
      expect(await text(page, 'transfer-rate')).toBe(w.formRate);
      await saysNoEstimate(page, 'transfer form');
      await page.getByLabel(w.phone).fill('077 12 34 56');
      await shot(page, `quotes-form-${lng}-390`);

      // The review: the price, line by line, and its time left come before the confirm button.
      await page.getByRole('button', { name: w.review }).click();
      const countdown = page.getByTestId('review-countdown');
      await expect.poll(async () => (await countdown.innerText()).trim()).toMatch(w.held);
      const price = page.getByTestId('review-price');
      await price.getByRole('heading', { name: w.priceTitle }).waitFor();
      expect(await text(page, 'summary-amount')).toBe(money(16394, 'USD'));
      expect(await text(page, 'summary-fee')).toBe(money(639, 'USD'));
      expect(await text(page, 'summary-total')).toBe(money(17033, 'USD'));
      expect(await text(page, 'summary-payout')).toBe(money(100003, 'XAF'));
      expect(await text(page, 'summary-rate')).toBe(w.formRate);
      const confirm = page.getByRole('button', { name: w.confirm });
      const [priceBox, countdownBox, confirmBox] = [await price.boundingBox(), await countdown.boundingBox(), await confirm.boundingBox()];
      expect(priceBox!.y + priceBox!.height).toBeLessThanOrEqual(confirmBox!.y);
      expect(countdownBox!.y + countdownBox!.height).toBeLessThanOrEqual(confirmBox!.y);
      expect(await confirm.innerText()).toContain(money(17033, 'USD'));
      await saysNoEstimate(page, 'review');
      await shot(page, `quotes-review-${lng}-390`);

      // Half an hour passes: on the server (its clock decides) and on the phone.
      await expireQuotes(sender.email);
      await page.clock.fastForward('30:30');
      await page.getByTestId('review-expired').getByText(w.expired).waitFor();
      expect(await confirm.isDisabled()).toBe(true);
      await shot(page, `quotes-expired-${lng}-390`);

      // A new price, shown to accept, then confirmed.
      await page.getByRole('button', { name: w.newPrice }).click();
      await price.getByRole('heading', { name: w.newTitle }).waitFor();
      expect(await text(page, 'summary-total')).toBe(money(17033, 'USD'));
      await saysNoEstimate(page, 'new price');
      await shot(page, `quotes-new-price-${lng}-390`);
      await page.getByRole('button', { name: w.accept }).click();
      await expect.poll(async () => (await countdown.innerText()).trim()).toMatch(w.held);
      await confirm.click();
      await page.waitForURL(/\/pay\/[0-9a-f-]{36}/);

      // The payment page: exactly the price quoted.
      await expect.poll(() => text(page, 'pay-total')).toBe(money(17033, 'USD'));
      expect(await text(page, 'pay-payout')).toBe(money(100003, 'XAF'));
      expect(await text(page, 'pay-rate')).toBe(w.formRate);
      await saysNoEstimate(page, 'payment page');
      await shot(page, `quotes-pay-${lng}-390`);
      const used = await app.sql<{ n: number }>(
        'select count(*)::int as n from quotes where used_at is not null and profile_id = (select id from profiles where email = $1)', [sender.email]);
      expect(used[0]!.n).toBe(1);
      await page.close();
    });
  }

  it('the review keeps its price through a tier edit; a price the server says has run out is offered again to accept', async () => {
    const sender = SENDERS.en;
    const page = await app.signedInPage(sender, { width: WIDTH });
    const review = async () => {
      await page.goto(`${app.server.url}/transfer?direction=USD_XAF&amount=150`);
      await page.getByLabel('Recipient phone number').fill('077 12 34 56');
      await page.getByRole('button', { name: 'Review transfer' }).click();
      await page.getByTestId('review-countdown').waitFor();
    };
    const confirm = page.getByRole('button', { name: /^Confirm and pay / });

    // $150 at 3.9 %: $5.85. The admin raises the tier to 5 % after the review: the promise holds.
    await review();
    expect(await confirm.innerText()).toBe('Confirm and pay $155.85');
    await setTierFee('100', '0.05');
    await confirm.click();
    await page.waitForURL(/\/pay\//);
    await expect.poll(() => text(page, 'pay-total')).toBe('$155.85');

    // At 5 % the review says $157.50; the tier goes back and the price runs out on the server
    // only (the phone's clock still shows time left): confirming gets the new price to accept.
    await review();
    expect(await confirm.innerText()).toBe('Confirm and pay $157.50');
    await setTierFee('100', '0.039');
    await expireQuotes(sender.email);
    await confirm.click();
    await page.getByTestId('review-price').getByRole('heading', { name: 'A new price' }).waitFor();
    expect(await text(page, 'summary-total')).toBe('$155.85');
    await page.getByRole('button', { name: 'Accept this price' }).click();
    await confirm.click();
    await page.waitForURL(/\/pay\//);
    await expect.poll(() => text(page, 'pay-total')).toBe('$155.85');
    await page.close();
  });
});

describe('typing prices what is typed, and promises nothing until the review', () => {
  it('an amount typed key by key in the calculator and the form is priced at each pause, never refused (429), with no quote stored until the review asks one', async () => {
    const typist = { email: 'theo@example.test', password: 'Lambarene-River-2026', full_name: 'Theo Nguema' };
    await app.senderExists(typist);
    const page = await app.signedInPage(typist, { width: WIDTH });
    const asked: { path: string; status: number }[] = [];
    page.on('response', (res) => {
      const { pathname } = new URL(res.url());
      if (res.request().method() === 'POST' && pathname.startsWith('/api/quotes')) asked.push({ path: pathname, status: res.status() });
    });
    const stored = async () => (await app.sql<{ n: number }>(
      'select count(*)::int as n from quotes where profile_id = (select id from profiles where email = $1)', [typist.email]))[0]!.n;

    // A pause longer than 0.4 s after every key: each one asks the price of what is typed so far.
    await page.goto(app.server.url, { waitUntil: 'networkidle' });
    await page.getByTestId('calculator-amount').clear();
    await page.getByTestId('calculator-amount').pressSequentially('1234', { delay: 600 });
    await expect.poll(() => text(page, 'calc-total')).toBe('$1,273.49');
    await page.goto(`${app.server.url}/transfer?direction=USD_XAF`);
    await page.getByTestId('transfer-amount').clear();
    await page.getByTestId('transfer-amount').pressSequentially('987.65', { delay: 600 });
    await expect.poll(() => text(page, 'summary-total')).toBe('$1,019.25');
    expect(asked.filter((a) => a.path === '/api/quotes/preview').length).toBeGreaterThanOrEqual(6);
    expect(asked.filter((a) => a.status !== 200)).toEqual([]);
    expect(asked.filter((a) => a.path === '/api/quotes')).toEqual([]);
    expect(await stored()).toBe(0);

    // The review asks the one quote it holds, with its whole time left.
    await page.getByLabel('Recipient phone number').fill('077 12 34 56');
    await page.getByRole('button', { name: 'Review transfer' }).click();
    await expect.poll(async () => (await page.getByTestId('review-countdown').innerText()).trim()).toMatch(/^This price is held for you for (29:[0-5]\d|30:00)\.$/);
    expect(await text(page, 'summary-total')).toBe('$1,019.25');
    expect(asked.filter((a) => a.path === '/api/quotes')).toEqual([{ path: '/api/quotes', status: 200 }]);
    expect(await stored()).toBe(1);
    await page.close();
  });
});

describe('rates as people read them, the reference beside ours (D25)', () => {
  it('EUR ↔ XAF: the euro first both ways, the legal parity beside our rate, the margin on the review, a day to decide', async () => {
    const page = await app.signedInPage(SENDERS.en, { width: WIDTH });
    await page.goto(app.server.url, { waitUntil: 'networkidle' });
    const direction = page.getByTestId('calculator-direction');
    await direction.selectOption('EUR_XAF');
    await expect.poll(() => text(page, 'calc-rate')).toBe('Rate: 1 EUR = 655 XAF');
    await expect.poll(() => text(page, 'calc-reference')).toBe('Reference rate: 1 EUR = 655.96 XAF');
    await direction.selectOption('XAF_EUR');
    await page.getByTestId('calculator-amount').fill('65,500');
    await expect.poll(() => text(page, 'calc-rate')).toBe('Rate: 1 EUR = 655 XAF');
    await direction.selectOption('EUR_EUR');
    await expect.poll(() => text(page, 'calc-rate')).toBe('No currency exchange: EUR on both sides.');
    await saysNoEstimate(page, 'home');

    for (const lng of ['en', 'fr'] as const) {
      const french = lng === 'fr';
      const view = french ? await app.signedInPage(SENDERS.fr, { width: WIDTH, locale: 'fr-FR' }) : page;
      await view.goto(`${app.server.url}/transfer?direction=EUR_XAF&amount=100&lng=${lng}`);
      await view.getByLabel(WORDS[lng].phone).fill('077 12 34 56');
      await view.getByRole('button', { name: WORDS[lng].review }).click();
      // 1 − 655 ÷ 655.957 = 0.1459 %: shown as 0.15 %.
      await expect.poll(() => text(view, 'summary-reference')).toBe(french ? '1 EUR = 655,96 XAF' : '1 EUR = 655.96 XAF');
      expect(await text(view, 'summary-rate')).toBe('1 EUR = 655 XAF');
      expect(await text(view, 'summary-margin')).toBe(french ? '0,15\u202f%' : '0.15%');
      // EUR ↔ XAF is held a day (the parity is fixed by law): hours, not minutes.
      expect((await text(view, 'review-countdown')).trim()).toMatch(french
        ? /^Ce prix vous est garanti pendant (23 h 59 min|24 h 0 min)\.$/ : /^This price is held for you for (23 hr 59 min|24 hr 0 min)\.$/);
      await saysNoEstimate(view, 'review');
      await shot(view, `quotes-review-eur-xaf-${lng}-390`);
      await view.close();
    }
  });
});

describe('what the server refuses is said where it was typed', () => {
  it('a payout too small for the corridor: the calculator and the form say its minimum, and no review opens', async () => {
    const page = await app.signedInPage(SENDERS.en, { width: WIDTH });
    await page.goto(app.server.url, { waitUntil: 'networkidle' });
    await page.getByTestId('calculator-payout').fill('100');
    await expect.poll(() => page.getByTestId('calculator-amount').inputValue()).toBe('0.17');
    await page.getByText(/^The minimum for this corridor is \$/).waitFor();

    await page.goto(`${app.server.url}/transfer?direction=USD_XAF`);
    await page.getByTestId('transfer-payout').fill('100');
    await expect.poll(() => page.getByTestId('transfer-amount').inputValue()).toBe('0.17');
    await expect.poll(() => text(page, 'quote-error')).toMatch(/^The minimum for this corridor is \$/);
    expect(await page.getByTestId('quote-error').getAttribute('role')).toBe('alert');
    await page.getByLabel('Recipient phone number').fill('077 12 34 56');
    await page.getByRole('button', { name: 'Review transfer' }).click();
    await page.getByText(/^The minimum for this corridor is \$/).first().waitFor();
    expect(await page.getByTestId('review-price').count()).toBe(0);
    await shot(page, 'quotes-refused-en-390');
    await page.close();
  });
});

// A level-1 sender may send €1,000 at once. EUR → XAF at our 655: a cent is 6.55 FCFA, so
// €152.68 is the least that covers 100,000 FCFA, and it gives 100,005.
const exactly = (words: string) => new RegExp(`^${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const LIMITED = {
  en: {
    account: { email: 'lena.limit@example.test', password: 'Lena-Limit-Sends-2026', full_name: 'Lena Limit' }, locale: 'en-US', typed: '100000',
    over: exactly('This transfer is over your limit for one transfer: €1,000.00 is left. Send less, or verify your identity to raise your limits.'),
    overWords: 'over your limit', noRate: 'Shown once the amount can be sent', phone: 'Recipient phone number', review: 'Review transfer',
    payout: /^FCFA\s100,005$/, rounded: /^You pay in whole cents: €152\.68, the least that covers FCFA\s100,000, gives the recipient FCFA\s100,005\.$/,
  },
  fr: {
    account: { email: 'louis.plafond@example.test', password: 'Louis-Plafond-Envoie-2026', full_name: 'Louis Plafond' }, locale: 'fr-FR', typed: '100 000',
    over: /^Ce transfert dépasse votre plafond .+\u00a0: il vous reste 1\u202f000,00\s€\. Envoyez moins, ou faites vérifier votre identité pour relever vos plafonds\.$/,
    overWords: 'dépasse votre plafond', noRate: 'Affiché dès que le montant peut être envoyé', phone: 'Numéro de téléphone du bénéficiaire', review: 'Vérifier le transfert',
    payout: /^100\u202f005\sFCFA$/, rounded: /^Vous payez au centime près\u00a0: 152,68\s€, le plus petit montant qui couvre 100\u202f000\sFCFA, fait recevoir 100\u202f005\sFCFA au bénéficiaire\.$/,
  },
} as const;

describe('over the limit, and a payout typed, on a phone', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`${lng === 'en' ? 'in English' : 'in French'}: the refusal said once in one wording, no price of another amount, and why the payout is a little more than typed`, async () => {
      const w = LIMITED[lng];
      await app.senderExists(w.account, lng === 'en' ? '+24177000301' : '+24177000302', { level: 1 });
      const page = await app.signedInPage(w.account, { width: WIDTH, locale: w.locale });
      await page.goto(`${app.server.url}/transfer?direction=EUR_XAF`, { waitUntil: 'networkidle' });
      await page.getByTestId('transfer-amount').fill('5000');
      await expect.poll(() => text(page, 'quote-error')).toMatch(w.over);
      // No price of the amount typed before: the summary waits, and says why.
      expect(await text(page, 'summary-amount')).toBe('—');
      expect(await text(page, 'summary-rate')).toBe(w.noRate);

      await page.getByLabel(w.phone).fill('077 12 34 56');
      await page.getByRole('button', { name: w.review }).click();
      await page.locator('[data-testid="transfer-amount"][aria-invalid="true"]').waitFor();
      // Said once, in the server's words: under the amount, not again beside the rate nor in a toast.
      const said = (await page.locator('body').innerText()).split('\n').filter((line) => line.includes(w.overWords));
      expect(said).toHaveLength(1);
      expect(said[0]!.trim()).toMatch(w.over);
      expect(await page.getByTestId('review-price').count()).toBe(0);
      await shot(page, `quotes-over-limit-${lng}-390`);

      await page.getByTestId('transfer-amount').fill('');
      await page.getByTestId('transfer-payout').fill(w.typed);
      await expect.poll(() => text(page, 'summary-payout')).toMatch(w.payout);
      await expect.poll(() => text(page, 'payout-rounded')).toMatch(w.rounded);
      await shot(page, `quotes-payout-rounded-${lng}-390`);
      await page.close();
    });
  }
});
