import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { Currency } from '@core/money';
import type { MobileRailId } from '@core/rails';
import { Alert } from '@web/components/ui/alert';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { useZodForm } from '@web/components/ui/zod-form';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { useSetBalanceWarning, type Rail } from './rails-api';

// A rail's float (docs/rules/payout-rails.md#float): the operator's balance as last read, the
// admin's warning level, and the payouts waiting for float with what the float lacks for them.

const warningSchema = z.object({ amount: z.string() }).transform((v) => ({ amount: v.amount.trim() === '' ? null : v.amount.trim() }));

/** The admin sets the level below which the rail warns; empty: no warning. */
function WarningForm({ rail, currency }: { rail: MobileRailId; currency: Currency }) {
  const { t } = useTranslation(['admin', 'common']);
  const { toast } = useToast();
  const save = useSetBalanceWarning(rail);
  const form = useZodForm(warningSchema, { amount: '' });
  return (
    <Form
      form={form}
      onSubmit={async ({ amount }) => {
        await save.mutateAsync(amount);
        form.reset({ amount: '' });
        toast({ variant: 'success', title: t('rails.warningSaved') });
      }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="flex flex-wrap items-end gap-2"
      aria-label={t('rails.warningFormLabel', { rail: t(`rails.names.${rail}`) })}
      data-testid={`warning-form-${rail}`}
    >
      <Field name="amount" label={t('rails.warningLevel', { currency })} hint={t('rails.warningHint')} className="min-w-0 flex-1">
        <Input inputMode="numeric" autoComplete="off" />
      </Field>
      <SubmitButton>{t('rails.warningSave')}</SubmitButton>
      <FormError className="basis-full" />
    </Form>
  );
}

/** The payouts waiting for float, first to leave first, and the shortfall. */
function FloatQueue({ rail, currency }: { rail: Rail; currency: Currency }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  if (rail.queue.length === 0) return <p className="text-sm text-muted-foreground">{t('rails.queueEmpty')}</p>;
  return (
    <div className="flex flex-col gap-2" data-testid={`float-queue-${rail.id}`}>
      <Alert variant="warning">
        {t('rails.queueSummary', { count: rail.waiting, shortfall: rail.shortfall === null ? '—' : moneyFromDecimal(rail.shortfall, currency, lng) })}
      </Alert>
      <ol className="flex flex-col divide-y rounded-md border text-sm">
        {rail.queue.map((w, i) => (
          <li key={w.transfer_id} className="flex flex-wrap items-baseline justify-between gap-x-3 px-3 py-2">
            <span><span className="text-muted-foreground">{i + 1}.</span> <span className="font-mono">{w.reference}</span></span>
            <span className="font-semibold tabular-nums">{moneyFromDecimal(w.amount, currency, lng)}</span>
            <span className="basis-full text-xs text-muted-foreground">{t('rails.waitingSince', { when: formatDateTime(w.since, lng) })}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Balance, when it was read, the warning level (and the warning), and the queue. */
export function RailFloat({ rail, currency, isAdmin }: { rail: Rail & { id: MobileRailId }; currency: Currency; isAdmin: boolean }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{t('rails.balance')}</dt>
        <dd className="text-right font-semibold tabular-nums" data-testid={`balance-${rail.id}`}>
          {rail.balance ? moneyFromDecimal(rail.balance.amount, currency, lng) : t('rails.balanceNotRead')}
        </dd>
        {rail.balance ? (<><dt className="text-muted-foreground">{t('rails.readAt')}</dt><dd className="text-right">{formatDateTime(rail.balance.read_at, lng)}</dd></>) : null}
        <dt className="text-muted-foreground">{t('rails.warningLevelShort')}</dt>
        <dd className="text-right tabular-nums">{rail.balance_warning === null ? t('rails.noWarning') : moneyFromDecimal(rail.balance_warning, currency, lng)}</dd>
      </dl>
      {rail.below_warning ? <Alert variant="warning" data-testid={`below-warning-${rail.id}`}>{t('rails.belowWarning')}</Alert> : null}
      {isAdmin ? <WarningForm rail={rail.id} currency={currency} /> : null}
      <h4 className="font-semibold text-slate-900">{t('rails.queueTitle')}</h4>
      <FloatQueue rail={rail} currency={currency} />
    </div>
  );
}
