import { memo } from 'react';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CHANNELS, CHANNEL_IDS, firstValidDestination, isSupportedPair, type ChannelId } from '@core/channels';
import { groupIbanAsTyped } from '@core/iban';
import { isMobileChannel, readMobileNumber } from '@core/operators';
import { Button } from '@web/components/ui/button';
import { CheckboxField, Field, FormError, SubmitButton } from '@web/components/ui/form';
import { FormField } from '@web/components/ui/form-field';
import { Input, Textarea } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { channelLabel } from '@web/lib/format';
import { useOperators } from '@web/lib/operators';
import type { SavedRecipient } from '@web/lib/saved-recipient';
import { phoneRefusal, RECIPIENT_FIELDS, type TransferValues } from './transfer-values';

const upper = (text: string) => text.toUpperCase();

/** The "They receive" field, kept by the page: its text, currency and refusal, and what typing in either field does. */
export interface PayoutField {
  text: string;
  currency: string;
  error: string | null;
  /** Why the price gives more than typed (whole cents), said beside it; null when it gives what was typed. */
  note: string | null;
  onChange: (text: string) => void;
  /** The sender typed in "You send": the payout is filled from it again. */
  onAmountTyped: () => void;
}

/**
 * Under the payout number: the operator it belongs to as soon as its prefix is typed, the
 * refusal naming the accepted operators once it cannot be theirs, else an example (docs/rules/corridors.md#phone-country-rules).
 */
function PhoneHint({ destination }: { destination: ChannelId }) {
  const { t, i18n } = useTranslation(['transfer', 'validation']);
  const operators = useOperators();
  const phone = useWatch<TransferValues, 'recipient_phone'>({ name: 'recipient_phone' });
  const { errors } = useFormState<TransferValues>({ name: 'recipient_phone' });
  const reading = operators.data && isMobileChannel(destination) ? readMobileNumber(operators.data, destination, phone) : null;
  const refusal = reading?.status === 'refused' && !errors.recipient_phone
    ? phoneRefusal(operators.data, destination, phone, i18n.resolvedLanguage ?? 'en') : null;
  const text = reading && reading.status !== 'refused' && reading.operator ? t('form.phoneOperator', { operator: reading.operator })
    : refusal ? t('validation:recipientPhoneOperator', refusal)
      : t(destination === 'airtel_gabon' ? 'form.phoneHintGA' : 'form.phoneHintRW');
  return <span aria-live="polite" data-testid="phone-operator" className={refusal ? 'text-destructive' : undefined}>{text}</span>;
}

/** Who receives the money, as the destination's kind asks: a PayPal address, a phone number, or a bank account. */
function RecipientFields({ destination }: { destination: ChannelId }) {
  const { t } = useTranslation(['transfer', 'common', 'validation']);
  const kind = CHANNELS[destination].kind;
  if (kind === 'paypal') {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <Field name="recipient_email" label={t('form.paypalEmail')} required>
          <Input type="email" autoComplete="off" />
        </Field>
        <Field name="recipient_name" label={t('form.paypalName')} required>
          <Input autoComplete="off" />
        </Field>
      </div>
    );
  }
  if (kind === 'mobile') {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <Field name="recipient_phone" label={t('form.recipientPhone')} required hint={<PhoneHint destination={destination} />}>
          <Input type="tel" autoComplete="off" />
        </Field>
        <Field name="recipient_name" label={t('form.recipientNameOptional')}>
          <Input autoComplete="off" />
        </Field>
      </div>
    );
  }
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field name="recipient_name" label={t('form.accountHolder')} required className="sm:col-span-2">
        <Input autoComplete="off" />
      </Field>
      <Field name="iban" label={t('form.iban')} required parse={groupIbanAsTyped}>
        <Input autoComplete="off" spellCheck={false} />
      </Field>
      <Field name="bic" label={t('form.bicOptional')} parse={upper}>
        <Input autoComplete="off" spellCheck={false} />
      </Field>
    </div>
  );
}

/**
 * The transfer's fields, inside the page's <Form>: route, amount (with the rate, or why the price
 * was refused, as its hint), a saved recipient to fill in, the destination's own recipient fields,
 * a note. Drawn again only when what it shows changes (the page answers to every price and list
 * that arrives): it follows the form's values itself.
 */
export const TransferFields = memo(function TransferFields({ rate, rateError, saved, payout }: {
  rate: string;
  rateError: string | null;
  saved: SavedRecipient[];
  payout: PayoutField;
}) {
  const { t } = useTranslation(['transfer', 'common', 'validation']);
  const { getValues, setValue, clearErrors } = useFormContext<TransferValues>();
  const [source, destination] = useWatch<TransferValues, ['source', 'destination']>({ name: ['source', 'destination'] });
  const currency = CHANNELS[source].currency;

  /** A new source keeps a destination it can send to; the amount is read again in its currency. */
  const onSource = (value: unknown) => {
    const next = value as ChannelId;
    setValue('destination', firstValidDestination(next, getValues('destination')) ?? getValues('destination'));
    clearErrors();
  };
  const onDestination = (value: unknown) => {
    setValue('destination', firstValidDestination(getValues('source'), value as ChannelId) ?? (value as ChannelId));
    clearErrors();
  };
  const applySaved = (id: string) => {
    const r = saved.find((x) => x.id === id);
    if (!r) return;
    for (const name of RECIPIENT_FIELDS) setValue(name, r[name] ?? '');
    clearErrors();
  };

  return (
    <div className="grid gap-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field name="source" label={t('form.from')} onValueChange={onSource}>
          <Select data-testid="transfer-source">
            {CHANNEL_IDS.map((id) => <option key={id} value={id}>{channelLabel(t, id)}</option>)}
          </Select>
        </Field>
        <Field name="destination" label={t('form.to')} onValueChange={onDestination}>
          <Select data-testid="transfer-destination">
            {CHANNEL_IDS.map((id) => {
              const ok = isSupportedPair(source, id);
              return <option key={id} value={id} disabled={!ok}>{ok ? channelLabel(t, id) : t('form.notAvailable', { channel: channelLabel(t, id) })}</option>;
            })}
          </Select>
        </Field>
      </div>

      {/* Either amount: what the sender pays (before the fee) or what the recipient gets; typing one fills the other. */}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field name="amount" label={t('form.amountIn', { currency })} required onValueChange={payout.onAmountTyped}>
          <Input inputMode="decimal" autoComplete="off" data-testid="transfer-amount" />
        </Field>
        <FormField label={t('form.payoutIn', { currency: payout.currency })} error={payout.error ?? undefined}
          hint={payout.note ? <span data-testid="payout-rounded">{payout.note}</span> : undefined}>
          <Input
            inputMode="decimal" autoComplete="off" value={payout.text} onChange={(e) => payout.onChange(e.target.value)}
            aria-invalid={payout.error ? true : undefined} data-testid="transfer-payout"
          />
        </FormField>
      </div>
      <p className="-mt-3 text-sm text-slate-700" data-testid="transfer-rate" aria-live="polite">
        {rateError ? <span role="alert" className="font-medium text-destructive" data-testid="quote-error">{rateError}</span> : rate}
      </p>

      {saved.length > 0 ? (
        <FormField label={t('form.savedRecipients')}>
          <Select defaultValue="" onChange={(e) => applySaved(e.target.value)} data-testid="transfer-saved">
            <option value="">{t('form.chooseSaved')}</option>
            {saved.map((r) => (
              <option key={r.id} value={r.id}>
                {[r.label, r.recipient_name, r.recipient_email ?? r.recipient_phone ?? r.iban].filter(Boolean).join(' · ')}
              </option>
            ))}
          </Select>
        </FormField>
      ) : null}

      <RecipientFields destination={destination} />

      <Field name="note" label={t('form.notesOptional')}>
        <Textarea rows={3} maxLength={500} />
      </Field>

      <CheckboxField name="save_recipient" label={t('form.saveRecipient')} className="flex items-center gap-2 text-sm" />

      <FormError id="transfer-form-error" />

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="reset" variant="outline">{t('common:actions.reset')}</Button>
        <SubmitButton data-testid="transfer-review">{t('form.review')}</SubmitButton>
      </div>
    </div>
  );
});
