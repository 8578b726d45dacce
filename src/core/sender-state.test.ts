import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, PAYOUT_STATUSES, TRANSFER_STATUSES, type PaymentStatus, type PayoutStatus, type TransferStatus } from './status.js';
import enTransfer from '../locales/en/transfer.json';
import frTransfer from '../locales/fr/transfer.json';
import { SENDER_STATES, recipientHeldState, senderMustPay, senderState, type SenderStateInput } from './sender-state.js';

// The sender's one sentence over every status × payment × payout, with and without a proof and a
// hold: read in English as the screens show it, so a contradiction ("Rejected" and "Awaiting
// payment") is seen as a person would see it.

const EN: Record<string, string> = enTransfer.senderState;
const FR: Record<string, string> = frTransfer.senderState;

/** The sentence as the screens write it, the refund named as $63.00. */
function sentence(input: SenderStateInput): string {
  const { key } = senderState(input);
  return EN[key]!.replace('{{amount}}', '$63.00');
}

const every = (): SenderStateInput[] => TRANSFER_STATUSES.flatMap((status) => PAYMENT_STATUSES.flatMap((payment_status) =>
  PAYOUT_STATUSES.flatMap((payout_status) => [false, true].flatMap((has_proof) => [false, true].map((on_hold) =>
    ({ status, payment_status, payout_status, has_proof, on_hold }))))));

const s = (status: TransferStatus, payment_status: PaymentStatus, payout_status: PayoutStatus = 'not_sent', extra: Partial<SenderStateInput> = {}) =>
  sentence({ status, payment_status, payout_status, ...extra });

describe("the sender's sentence", () => {
  it('has one sentence, in English and in French, for every status × payment × payout × proof × hold (240 cases)', () => {
    const all = every();
    expect(all).toHaveLength(5 * 6 * 2 * 2 * 2);
    for (const input of all) {
      const { key } = senderState(input);
      expect(SENDER_STATES, JSON.stringify(input)).toContain(key);
      expect(EN[key], `en ${key}`).toBeTruthy();
      expect(FR[key], `fr ${key}`).toBeTruthy();
    }
    // Every sentence is reachable, and none is left unused in the catalogue.
    const used = new Set(all.map((i) => senderState(i).key));
    expect([...used].sort()).toEqual([...SENDER_STATES].sort());
  });

  it('never says "waiting for your payment" once the transfer is closed, completed, paid, authorized or a proof arrived', () => {
    for (const input of every()) {
      const waiting = senderState(input).key === 'awaitingPayment';
      const shouldWait = (input.status === 'pending' || input.status === 'processing') && input.payment_status === 'awaiting'
        && input.payout_status === 'not_sent' && !input.has_proof && !input.on_hold;
      expect(waiting, JSON.stringify(input)).toBe(shouldWait);
      expect(senderMustPay(input), JSON.stringify(input)).toBe(shouldWait);
    }
  });

  it('a closed transfer says it was cancelled or rejected and what became of the money, whatever the payout or proof', () => {
    for (const input of every().filter((i) => i.status === 'cancelled' || i.status === 'rejected')) {
      const text = sentence(input);
      expect(text.startsWith(input.status === 'cancelled' ? 'Cancelled — ' : 'Rejected — '), text).toBe(true);
      expect(text).not.toMatch(/waiting|^On its way|delivered/i);
    }
    expect(s('cancelled', 'awaiting')).toBe('Cancelled — nothing was charged');
    expect(s('cancelled', 'awaiting', 'not_sent', { has_proof: true })).toBe('Cancelled — nothing was charged');
    expect(s('cancelled', 'voided')).toBe('Cancelled — nothing was charged');
    expect(s('rejected', 'refund_due')).toBe('Rejected — your refund of $63.00 is on its way');
    expect(s('rejected', 'received')).toBe('Rejected — your refund of $63.00 is on its way');
    expect(s('rejected', 'refunded')).toBe('Rejected — your $63.00 was refunded');
    expect(s('rejected', 'authorized')).toBe('Rejected — PayPal is releasing the amount it held; nothing was charged');
    expect(s('cancelled', 'refund_due')).toBe('Cancelled — your refund of $63.00 is on its way');
  });

  it('a refund sentence names the amount; no other does', () => {
    for (const input of every()) {
      const { key, names_refund } = senderState(input);
      expect(EN[key]!.includes('{{amount}}'), key).toBe(names_refund);
      expect(FR[key]!.includes('{{amount}}'), key).toBe(names_refund);
    }
  });

  it('a completed transfer is delivered, whatever else', () => {
    for (const input of every().filter((i) => i.status === 'completed')) expect(sentence(input)).toBe('Delivered');
  });

  it('an open transfer says whose move it is', () => {
    expect(s('pending', 'awaiting')).toBe('Waiting for your payment');
    expect(s('pending', 'awaiting', 'not_sent', { has_proof: true })).toBe("Proof received — we're checking your payment");
    expect(s('processing', 'awaiting', 'not_sent', { has_proof: true })).toBe("Proof received — we're checking your payment");
    expect(s('pending', 'authorized')).toBe("We're checking your payment");
    expect(s('pending', 'received')).toBe("Payment received — we're preparing your transfer");
    expect(s('processing', 'received')).toBe('On its way');
    expect(s('processing', 'received', 'sent')).toBe('On its way');
    expect(s('pending', 'received', 'sent')).toBe('On its way');
    expect(s('pending', 'voided')).toBe('Nothing was charged — PayPal released the amount it held');
    expect(s('processing', 'refund_due')).toBe('Your refund of $63.00 is on its way');
    expect(s('pending', 'refunded')).toBe('Your $63.00 was refunded');
  });

  it('a compliance hold reads "We\'re checking your transfer" while open and nothing was paid out', () => {
    for (const status of ['pending', 'processing'] as const) {
      for (const payment_status of PAYMENT_STATUSES) {
        expect(s(status, payment_status, 'not_sent', { on_hold: true })).toBe("We're checking your transfer");
      }
    }
    // A hold does not undo a completed transfer's sentence, nor one closed with nothing paid.
    expect(s('completed', 'received', 'sent', { on_hold: true })).toBe('Delivered');
    expect(s('rejected', 'awaiting', 'not_sent', { on_hold: true })).toBe('Rejected — nothing was charged');
    // Closed with its money frozen (a confirmed match closed out): no refund is promised.
    expect(s('rejected', 'received', 'not_sent', { on_hold: true })).toBe('Rejected — this transfer cannot go ahead');
    expect(s('rejected', 'refund_due', 'not_sent', { on_hold: true })).toBe('Rejected — this transfer cannot go ahead');
  });

  it('says what to do while held: not to pay yet when paying would be next, else nothing; and, frozen, whom to ask', () => {
    const advice = (input: Partial<SenderStateInput>) => {
      const key = senderState({ status: 'pending', payment_status: 'awaiting', payout_status: 'not_sent', on_hold: true, ...input }).advice;
      return key ? { en: enTransfer.senderAdvice[key], fr: frTransfer.senderAdvice[key] } : null;
    };
    expect(advice({})?.en).toBe('A routine check must finish before this transfer can go ahead. Please don’t pay yet: this page will tell you when you can.');
    expect(advice({})?.fr).toBe('Une vérification de routine doit se terminer avant que ce transfert puisse avancer. Ne payez pas encore\u00a0: cette page vous dira quand vous pourrez le faire.');
    expect(advice({ has_proof: true })?.en).toBe('A routine check must finish before this transfer can go ahead. You have nothing to do.');
    expect(advice({ payment_status: 'received' })?.en).toBe('A routine check must finish before this transfer can go ahead. You have nothing to do.');
    expect(advice({ status: 'rejected', payment_status: 'received' })?.en).toMatch(/^We cannot carry out this transfer or return the \{\{amount\}\} you paid for now/);
    // Nothing to do when not held, and never a word of why.
    expect(advice({ on_hold: false })).toBeNull();
    for (const input of every()) {
      const key = senderState(input).advice;
      if (key) expect(`${enTransfer.senderAdvice[key]} ${frTransfer.senderAdvice[key]}`).not.toMatch(/sanction|list|match|liste|correspond/i);
    }
  });

  it("the recipient's tracking page reads a held transfer with the sender's own sentence and nothing to do", () => {
    expect(recipientHeldState({ status: 'pending', on_hold: true })).toMatchObject({ key: 'checkingTransfer', advice: 'heldNothingToDo' });
    expect(recipientHeldState({ status: 'processing', on_hold: true })?.key).toBe(senderState({ status: 'processing', payment_status: 'received', payout_status: 'not_sent', on_hold: true }).key);
    expect(recipientHeldState({ status: 'pending', on_hold: false })).toBeNull();
    expect(recipientHeldState({ status: 'rejected', on_hold: true })).toBeNull();
  });

  it('the tone: the sender acts only when they must pay; closed is stopped, completed done', () => {
    for (const input of every()) {
      const { key, tone } = senderState(input);
      if (key === 'awaitingPayment') expect(tone).toBe('action');
      else if (key === 'delivered') expect(tone).toBe('done');
      else if (input.status === 'cancelled' || input.status === 'rejected') expect(tone).toBe('stopped');
      else expect(tone).not.toBe('action');
    }
  });
});
