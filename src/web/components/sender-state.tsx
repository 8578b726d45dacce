import { useTranslation } from 'react-i18next';
import { CircleCheck, CircleSlash, Clock, Hourglass } from 'lucide-react';
import type { Currency } from '@core/money';
import { senderState, type SenderStateInput, type SenderTone } from '@core/sender-state';
import { cn } from '@web/lib/utils';
import { moneyFromDecimal } from '@web/lib/format';

/** What the sentence needs: the three states, proof and hold, and what was paid (for a refund). */
export interface SenderStateItem extends SenderStateInput {
  total: string;
  payment_amount: string | null;
  currency: Currency;
}

const TONE: Record<SenderTone, { icon: typeof Clock; className: string }> = {
  action: { icon: Hourglass, className: 'border-yellow-300 bg-yellow-50 text-yellow-950' },
  progress: { icon: Clock, className: 'border-blue-200 bg-blue-50 text-blue-950' },
  done: { icon: CircleCheck, className: 'border-green-300 bg-green-50 text-green-950' },
  stopped: { icon: CircleSlash, className: 'border-slate-300 bg-slate-100 text-slate-900' },
};

/** The transfer's on_hold, when the server sends one (a compliance hold); absent otherwise. */
const onHold = (item: object) => (item as { on_hold?: unknown }).on_hold === true;

/** The sentence's text, as the screens show it ("Rejected — your refund of $63.00 is on its way"). */
export function useSenderSentence(): (item: SenderStateItem) => string {
  const { t, i18n } = useTranslation('transfer');
  const lng = i18n.resolvedLanguage ?? 'en';
  return (item) => {
    const state = senderState({ ...item, on_hold: onHold(item) });
    const amount = state.names_refund ? moneyFromDecimal(item.payment_amount ?? item.total, item.currency, lng) : '';
    return t(`senderState.${state.key}`, { amount });
  };
}

/**
 * The sender's one sentence of state (src/core/sender-state.ts) in place of the status, payment and
 * payout badges, which stay for staff (StatusBadge and the admin work badges).
 */
export function SenderStateLine({ item, className }: { item: SenderStateItem; className?: string }) {
  const sentence = useSenderSentence();
  const state = senderState({ ...item, on_hold: onHold(item) });
  const { icon: Icon, className: tone } = TONE[state.tone];
  return (
    <p className={cn('inline-flex max-w-full items-start gap-1.5 rounded-md border px-2 py-1 text-sm font-medium', tone, className)}
      data-testid="sender-state" data-state={state.key}>
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span className="min-w-0 break-words">{sentence(item)}</span>
    </p>
  );
}
