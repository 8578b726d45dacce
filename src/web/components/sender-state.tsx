import { useTranslation } from 'react-i18next';
import { CircleCheck, CircleSlash, Clock, Hourglass } from 'lucide-react';
import type { Currency } from '@core/money';
import { senderState, type SenderState, type SenderStateInput, type SenderTone } from '@core/sender-state';
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

/** A state's sentence and, while held, what to do: the one look of every screen (the tracking page's too). */
export function StateLine({ state, sentence, advice, className }: { state: SenderState; sentence: string; advice: string | null; className?: string }) {
  const { icon: Icon, className: tone } = TONE[state.tone];
  return (
    <div className={cn('inline-flex max-w-full items-start gap-1.5 rounded-md border px-2 py-1 text-sm', tone, className)}
      data-testid="sender-state" data-state={state.key} data-advice={state.advice ?? undefined}>
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 break-words">
        <p className="font-medium">{sentence}</p>
        {advice ? <p className="mt-0.5" data-testid="sender-advice">{advice}</p> : null}
      </div>
    </div>
  );
}

/**
 * The sender's one sentence of state (src/core/sender-state.ts) in place of the status, payment and
 * payout badges, which stay for staff (StatusBadge and the admin work badges); while a compliance
 * check holds the transfer, what to do under it (docs/rules/screening.md#what-the-sender-sees).
 */
export function SenderStateLine({ item, className }: { item: SenderStateItem; className?: string }) {
  const { t, i18n } = useTranslation('transfer');
  const sentence = useSenderSentence();
  const state = senderState({ ...item, on_hold: onHold(item) });
  const paid = moneyFromDecimal(item.payment_amount ?? item.total, item.currency, i18n.resolvedLanguage ?? 'en');
  return <StateLine state={state} sentence={sentence(item)} advice={state.advice ? t(`senderAdvice.${state.advice}`, { amount: paid }) : null} className={className} />;
}
