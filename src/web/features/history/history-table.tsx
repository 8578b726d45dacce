import { useTranslation } from 'react-i18next';
import { formatPhone } from '@core/phone';
import { Badge } from '@web/components/ui/badge';
import { Card } from '@web/components/ui/card';
import { DeliveryNote, useDelivery, type Delivery } from '@web/components/delivery-note';
import { SenderStateLine } from '@web/components/sender-state';
import { directionLabel, formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { recipientName, type TransactionItem } from '@web/lib/transfers';
import { TransferActions } from './transfer-actions';

// One table: on a phone (below md) each row is a card, recipient and amount first, then the
// date and reference, the states, and the actions, all within the screen's width.
const cell = 'min-w-0 md:table-cell md:px-4 md:py-3 md:align-top';

interface HistoryRowProps {
  item: TransactionItem;
  delivery: Delivery | null;
  onDetails: () => void;
}

/** One transfer: its recipient, amount, date and reference, states, and actions. */
function HistoryRow({ item, delivery, onDetails }: HistoryRowProps) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const name = recipientName(item);
  const phone = item.destination_details.recipient_phone;
  return (
    <tr data-testid="history-row" data-reference={item.reference}
      className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-2 p-4 md:table-row md:p-0">
      <td className={`${cell} col-start-1 row-start-1`}>
        <p className="break-words font-medium">{name ?? <span className="italic text-slate-600">{t('history.unknownRecipient')}</span>}</p>
        {phone ? <p className="whitespace-nowrap text-xs text-slate-700">{formatPhone(phone)}</p> : null}
        <p className="text-xs text-slate-600">{directionLabel(t, item.direction)}</p>
      </td>
      <td className={`${cell} col-start-2 row-start-1 whitespace-nowrap text-right font-semibold tabular-nums`}>
        {moneyFromDecimal(item.amount, item.currency, lng)}
      </td>
      <td className={`${cell} col-span-2 row-start-2 text-xs text-slate-700 md:text-sm`}>
        <p>{formatDateTime(item.created_at, lng)}</p>
        <p className="font-mono text-xs text-slate-700" data-testid="history-reference">{item.reference}</p>
      </td>
      <td className={`${cell} col-span-2 row-start-3`}>
        <div className="flex flex-wrap items-center gap-1.5 md:flex-col md:items-start">
          <SenderStateLine item={item} />
          {item.action_needed ? <Badge variant="yellow">{t('action.badge')}</Badge> : null}
          <DeliveryNote delivery={delivery} />
        </div>
      </td>
      <td className={`${cell} col-span-2 row-start-4`}>
        <TransferActions item={item} onDetails={onDetails} />
      </td>
    </tr>
  );
}

/** The sender's transfers, one row each; `onDetails` opens one's details. */
export function HistoryTable({ rows, onDetails }: { rows: TransactionItem[]; onDetails: (transferId: string) => void }) {
  const { t } = useTranslation(['transfer', 'common']);
  const delivery = useDelivery();
  return (
    <Card className="md:overflow-x-auto">
      <table className="block w-full text-left text-sm md:table md:min-w-[820px]" data-testid="history-table">
        <caption className="sr-only">{t('history.title')}</caption>
        <thead className="sr-only border-b border-border bg-slate-50 text-xs uppercase tracking-wide text-slate-600 md:not-sr-only md:table-header-group">
          <tr>
            <th scope="col" className="px-4 py-3">{t('history.recipient')}</th>
            <th scope="col" className="px-4 py-3 text-right">{t('history.amount')}</th>
            <th scope="col" className="px-4 py-3">{t('history.date')}</th>
            <th scope="col" className="px-4 py-3">{t('history.status')}</th>
            <th scope="col" className="px-4 py-3 text-right">{t('history.actions')}</th>
          </tr>
        </thead>
        <tbody className="block divide-y divide-border md:table-row-group">
          {rows.map((item) => <HistoryRow key={item.id} item={item} delivery={delivery(item)} onDetails={() => onDetails(item.transfer_request_id)} />)}
        </tbody>
      </table>
    </Card>
  );
}
