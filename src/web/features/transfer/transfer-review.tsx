import { useTranslation } from 'react-i18next';
import { ArrowLeft, Send } from 'lucide-react';
import { CHANNELS } from '@core/channels';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { FormError } from '@web/components/ui/form';
import { isMobileChannel, readMobileNumber, type OperatorPrefix } from '@core/operators';
import { formatPhone } from '@core/phone';
import { channelLabel } from '@web/lib/format';
import { useOperators } from '@web/lib/operators';
import type { TransferValues } from './transfer-values';

/** Who gets it: a mobile number written as its country writes it, with its operator (docs/rules/corridors.md#phone-country-rules). */
function recipientSummary(v: TransferValues, operators: readonly OperatorPrefix[] | undefined): string {
  const kind = CHANNELS[v.destination].kind;
  if (kind === 'paypal') return `${v.recipient_name} · ${v.recipient_email}`;
  if (kind === 'mobile') {
    const reading = operators && isMobileChannel(v.destination) ? readMobileNumber(operators, v.destination, v.recipient_phone) : null;
    const phone = reading?.status === 'valid' ? `${formatPhone(reading.e164)} (${reading.operator})` : v.recipient_phone;
    return [v.recipient_name, phone].filter(Boolean).join(' · ');
  }
  return `${v.recipient_name} · ${v.iban}`;
}

/** The last look before the transfer is created: route, recipient, and the confirm with its total. */
export function TransferReview({ values, total, creating, onEdit, onConfirm }: {
  values: TransferValues;
  total: string;
  creating: boolean;
  onEdit: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation(['transfer', 'common']);
  const operators = useOperators();
  return (
    <Card className="p-5 sm:p-6">
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div><dt className="text-slate-600">{t('form.from')}</dt><dd className="font-medium">{channelLabel(t, values.source)}</dd></div>
        <div><dt className="text-slate-600">{t('form.to')}</dt><dd className="font-medium">{channelLabel(t, values.destination)}</dd></div>
        <div className="sm:col-span-2"><dt className="text-slate-600">{t('form.recipient')}</dt><dd className="break-words font-medium" data-testid="review-recipient">{recipientSummary(values, operators.data)}</dd></div>
        {CHANNELS[values.destination].kind === 'bank' && values.bic ? (
          <div><dt className="text-slate-600">{t('form.bic')}</dt><dd className="font-mono font-medium" data-testid="review-bic">{values.bic}</dd></div>
        ) : null}
      </dl>
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row">
        <Button variant="outline" onClick={onEdit} disabled={creating}>
          <ArrowLeft aria-hidden />
          {t('review.edit')}
        </Button>
        <Button onClick={onConfirm} loading={creating} data-testid="transfer-confirm">
          <Send aria-hidden />
          {creating ? t('review.creating') : t('review.confirm', { total })}
        </Button>
      </div>
      <FormError className="mt-4" />
    </Card>
  );
}
