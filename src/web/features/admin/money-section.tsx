import { useMemo, useState, type ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { AlertTriangle } from 'lucide-react';
import type { TransferRequestJson } from '@core/api/transfers';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Field, Form, FormError, SubmitButton, useErrorText } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { paymentVariant, payoutVariant } from '@web/lib/money-labels';
import { useRecordMoney, type MoneyRecordInput } from './admin-api';
import { amountText } from './admin-format';
import { dueAmount, MAX_MONEY_REFERENCE, paymentFormSchema, payoutFormSchema, refundFormSchema, staffActions } from './money-form';

// The details dialog's money (docs/rules/money-states.md): the payment in, the payout out,
// the refund, each with the action its state allows and the server's refusal shown beside it.

type Transfer = TransferRequestJson & { paypal_checkout?: boolean; needs_approval?: boolean };

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  if (children == null || children === '') return null;
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** A payment state as a badge, marked when the amount received differs from the total due. */
export function PaymentBadge({ transfer }: { transfer: Pick<Transfer, 'payment_status' | 'payment_flagged'> }) {
  const { t } = useTranslation('admin');
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge variant={paymentVariant(transfer.payment_status)} data-payment={transfer.payment_status}>
        {t(`payment.${transfer.payment_status}`)}
      </Badge>
      {transfer.payment_flagged ? (
        <Badge variant="red" title={t('money.flaggedHint')}>
          <AlertTriangle aria-hidden className="mr-1 size-3" />{t('money.flagged')}
        </Badge>
      ) : null}
    </span>
  );
}

export function PayoutBadge({ transfer }: { transfer: Pick<Transfer, 'payout_status'> }) {
  const { t } = useTranslation('admin');
  return <Badge variant={payoutVariant(transfer.payout_status)} data-payout={transfer.payout_status}>{t(`payout.${transfer.payout_status}`)}</Badge>;
}

/**
 * One money action's form: its fields, its button, and what the server refused, beside them. A
 * refusal (409) is also told to `onRefused`: the dialog reloads, the form may go (the state moved),
 * and its section keeps the message.
 */
function MoneyForm<TIn extends Record<string, string>, TOut extends FieldValues>({
  id, action, schema, defaults, submit, done, onRefused, children,
}: {
  onRefused: (message: string | null) => void;
  id: string;
  action: MoneyRecordInput['action'];
  schema: z.ZodType<TOut, TIn>;
  defaults: TIn;
  submit: string;
  done: string;
  children: ReactNode;
}) {
  const { t } = useTranslation(['admin', 'common']);
  const { toast } = useToast();
  const record = useRecordMoney();
  const form = useZodForm(schema, defaults as never);
  return (
    <Form
      form={form}
      onSubmit={async (body) => {
        onRefused(null);
        await record.mutateAsync({ id, action, body } as MoneyRecordInput);
        toast({ variant: 'success', title: done });
        form.reset();
      }}
      onFailure={(e) => { if (isApiError(e) && e.status === 409) onRefused(e.message); }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="mt-2 flex flex-col gap-3 rounded-lg border border-border bg-slate-50 p-3"
      aria-label={submit}
    >
      {children}
      <FormError />
      <SubmitButton size="sm" className="self-start">{submit}</SubmitButton>
    </Form>
  );
}

export function MoneySection({ transfer }: { transfer: Transfer }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const actions = staffActions(transfer);
  const errorText = useErrorText();
  const paymentSchema = useMemo(() => paymentFormSchema(transfer.currency, lng), [transfer.currency, lng]);
  const refundSchema = useMemo(() => refundFormSchema(Boolean(transfer.paypal_checkout)), [transfer.paypal_checkout]);
  const time = (at: string | null) => (at ? formatDateTime(at, lng) : null);
  const refundShown = transfer.payment_status === 'refund_due' || transfer.payment_status === 'refunded';
  // What the server refused, kept beside its action after the dialog reloads without its form.
  const [refused, setRefused] = useState<Partial<Record<MoneyRecordInput['action'], string>>>({});
  const refusedBy = (action: MoneyRecordInput['action']) => (message: string | null) =>
    setRefused((r) => ({ ...r, [action]: message ?? undefined }));
  const refusal = (action: MoneyRecordInput['action']) =>
    (refused[action] ? <Alert variant="destructive" className="mt-2">{refused[action]}</Alert> : null);

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <section aria-labelledby="d-payment" data-testid="money-payment">
        <h3 id="d-payment" className="mb-1 font-semibold">{t('money.payment')}</h3>
        <dl>
          <Row label={t('money.state')}><PaymentBadge transfer={transfer} /></Row>
          <Row label={t('money.due')}>{amountText(transfer.total, transfer.currency, lng)}</Row>
          <Row label={t('money.received')}>
            {transfer.payment_amount ? (
              <>
                {amountText(transfer.payment_amount, transfer.currency, lng)}
                {transfer.payment_flagged ? <span className="block text-red-800">{t('money.flaggedHint')}</span> : null}
              </>
            ) : null}
          </Row>
          <Row label={t('money.statementReference')}>{transfer.payment_reference}</Row>
          <Row label={t('money.recordedAt')}>{time(transfer.payment_recorded_at)}</Row>
        </dl>
        {actions.payment ? (
          <MoneyForm
            id={transfer.id} action="payment" schema={paymentSchema}
            defaults={{ amount: dueAmount(transfer.total, transfer.currency, lng), reference: '' }}
            submit={t('actions.recordPayment')} done={t('money.paymentRecorded')} onRefused={refusedBy('payment')}
          >
            <Field name="amount" label={t('money.amountField')} hint={t('money.amountHint')} required>
              <Input inputMode="decimal" autoComplete="off" />
            </Field>
            <Field name="reference" label={t('money.statementReferenceField')} hint={t('money.statementReferenceHint')} required>
              <Input maxLength={MAX_MONEY_REFERENCE} autoComplete="off" />
            </Field>
          </MoneyForm>
        ) : refusal('payment')}
      </section>

      <section aria-labelledby="d-payout" data-testid="money-payout">
        <h3 id="d-payout" className="mb-1 font-semibold">{t('money.payout')}</h3>
        <dl>
          <Row label={t('money.state')}><PayoutBadge transfer={transfer} /></Row>
          <Row label={t('money.amount')}>{amountText(transfer.payout_amount, transfer.payout_currency, lng)}</Row>
          <Row label={t('money.reference')}>{transfer.payout_reference}</Row>
          <Row label={t('money.sentAt')}>{time(transfer.payout_sent_at)}</Row>
        </dl>
        {actions.payout ? (
          <MoneyForm
            id={transfer.id} action="payout" schema={payoutFormSchema} defaults={{ reference: '' }}
            submit={t('actions.recordPayout')} done={t('money.payoutRecorded')} onRefused={refusedBy('payout')}
          >
            <Field name="reference" label={t('money.payoutReferenceField')} hint={t('money.payoutReferenceHint')} required>
              <Input maxLength={MAX_MONEY_REFERENCE} autoComplete="off" />
            </Field>
          </MoneyForm>
        ) : actions.payoutBlocked ? (
          <p className="mt-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="payout-waits">{errorText(actions.payoutBlocked)}</p>
        ) : refusal('payout')}
      </section>

      {refundShown ? (
        <section aria-labelledby="d-refund" data-testid="money-refund" className="sm:col-span-2">
          <h3 id="d-refund" className="mb-1 font-semibold">{t('money.refund')}</h3>
          <dl>
            <Row label={t('money.state')}><PaymentBadge transfer={{ payment_status: transfer.payment_status, payment_flagged: false }} /></Row>
            <Row label={t('money.amount')}>{transfer.payment_amount ? amountText(transfer.payment_amount, transfer.currency, lng) : null}</Row>
            <Row label={t('money.reference')}>{transfer.refund_reference}</Row>
            <Row label={t('money.refundedAt')}>{time(transfer.refunded_at)}</Row>
          </dl>
          {actions.refund ? (
            <MoneyForm
              id={transfer.id} action="refund" schema={refundSchema} defaults={{ reference: '' }}
              submit={t('actions.recordRefund')} done={t('money.refundRecorded')} onRefused={refusedBy('refund')}
            >
              <Field
                name="reference" label={t('money.refundReferenceField')}
                hint={transfer.paypal_checkout ? t('money.refundReferencePayPalHint') : t('money.refundReferenceHint')}
                required={!transfer.paypal_checkout}
              >
                <Input maxLength={MAX_MONEY_REFERENCE} autoComplete="off" />
              </Field>
            </MoneyForm>
          ) : refusal('refund')}
        </section>
      ) : null}
    </div>
  );
}
