import { useTranslation } from 'react-i18next';
import { rateText } from '@web/lib/rate-lines';
import { channelLabel } from '@web/lib/format';
import type { StaffDetail, StaffRequest } from './admin-api';
import { amountText, requesterName } from './admin-format';
import { Row } from './details-sections';

// The staff details' first block: who sends, who receives, and the price.

export function PartiesSection({ row, detail }: { row: StaffRequest; detail: StaffDetail | undefined }) {
  const { t, i18n } = useTranslation(['admin', 'common', 'validation', 'transfer']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const current = detail ?? row;
  const dest = current.destination_details;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <section aria-labelledby="d-sender">
        <h3 id="d-sender" className="mb-1 font-semibold">{t('details.sender')}</h3>
        <dl>
          <Row label={t('details.name')}>{requesterName(row.requester)}</Row>
          <Row label={t('details.email')}>{row.requester.email}</Row>
          <Row label={t('details.source')}>{channelLabel(t, row.source_provider)}</Row>
          <Row label={t('details.senderNote')}>{text((detail?.source_details ?? row.source_details).note)}</Row>
        </dl>
      </section>
      <section aria-labelledby="d-recipient">
        <h3 id="d-recipient" className="mb-1 font-semibold">{t('details.recipient')}</h3>
        <dl>
          <Row label={t('details.destination')}>{channelLabel(t, row.destination_provider)}</Row>
          <Row label={t('details.name')}>{text(dest.recipient_name) || text(dest.account_holder) || t('details.unknownRecipient')}</Row>
          <Row label={t('details.phone')}>{text(dest.recipient_phone)}</Row>
          <Row label={t('details.email')}>{text(dest.recipient_email)}</Row>
          <Row label="IBAN">{text(dest.iban)}</Row>
          <Row label="BIC">{text(dest.bic)}</Row>
        </dl>
      </section>
      <section aria-labelledby="d-amounts" className="sm:col-span-2">
        <h3 id="d-amounts" className="mb-1 font-semibold">{t('details.amounts')}</h3>
        <dl className="grid sm:grid-cols-2 sm:gap-x-6">
          <Row label={t('details.amount')}>{amountText(row.amount, row.currency, lng)}</Row>
          <Row label={t('details.fee')}>{amountText(row.fee, row.currency, lng)}</Row>
          <Row label={t('details.total')}>{amountText(row.total, row.currency, lng)}</Row>
          <Row label={t('details.rate')}>{rateText(t, { ...row, reference_rate: row.rate, margin: '0' }, lng)}</Row>
          <Row label={t('details.payout')}>{amountText(row.payout_amount, row.payout_currency, lng)}</Row>
          <Row label={t('details.providerTxn')}>{current.provider_txn_id}</Row>
        </dl>
      </section>
    </div>
  );
}
