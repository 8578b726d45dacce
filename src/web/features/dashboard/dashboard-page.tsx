import { useDeferredValue, useId, useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { History, LifeBuoy, Lightbulb, MessageSquareWarning, Repeat, Send } from 'lucide-react';
import { formatPhone } from '@core/phone';
import { CancelTransferButton } from '@web/components/cancel-transfer';
import { DeliveryNote, useDelivery } from '@web/components/delivery-note';
import { KycCard } from '@web/components/kyc-limits';
import { useKyc } from '@web/lib/kyc';
import { PageShell } from '@web/components/page';
import { RouteHeader } from '@web/components/route-heading';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { LoadingState } from '@web/components/ui/spinner';
import { SenderStateLine } from '@web/components/sender-state';
import { senderMustPay } from '@core/sender-state';
import { displayName, useSession } from '@web/lib/session';
import { directionLabel, formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { recipientName, useSummary, useTransactionList, type TransactionItem } from '@web/lib/transfers';
import { sendAgainFromTransfer } from '@web/lib/send-again';

const TIPS = ['checkRecipient', 'reference', 'proof', 'limits'] as const;

function ListCard({ title, query, empty, render }: {
  title: string;
  query: { isPending: boolean; isError: boolean; error: Error | null; data: TransactionItem[] | undefined };
  empty: string;
  render: (item: TransactionItem) => ReactNode;
}) {
  const titleId = useId();
  // Drawn in a transition (in slices, not one long task); until then it shows as loading.
  const items = useDeferredValue(query.data);
  return (
    <Card className="min-w-0 p-4 sm:p-6">
      <h2 id={titleId} className="text-lg font-semibold">{title}</h2>
      <div className="mt-3">
        {query.isPending || (query.data && !items) ? <LoadingState /> : query.isError || !items ? <Alert variant="destructive">{query.error?.message}</Alert>
          : items.length === 0 ? <EmptyState title={empty} />
            : <ul className="divide-y divide-border" aria-labelledby={titleId}>{items.map((item) => <li key={item.id} className="py-3">{render(item)}</li>)}</ul>}
      </div>
    </Card>
  );
}

/** Its details (and thread) open over the history. */
const detailsHref = (item: TransactionItem) => `/history?details=${item.transfer_request_id}`;

/**
 * One transfer as a card: recipient and amount, date and reference, its states, and what can be
 * done with it (details, cancel, send again; the receipt is in the history).
 */
function TransferItem({ item, extra }: { item: TransactionItem; extra?: ReactNode }) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const delivery = useDelivery();
  const phone = item.destination_details.recipient_phone;
  const again = sendAgainFromTransfer(item);
  return (
    <div className="grid gap-2">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-words font-medium">{recipientName(item) ?? t('history.unknownRecipient')}</p>
          {phone ? <p className="whitespace-nowrap text-xs text-slate-700">{formatPhone(phone)}</p> : null}
          <p className="text-xs text-slate-600">{directionLabel(t, item.direction)}</p>
        </div>
        <p className="shrink-0 font-semibold tabular-nums">{moneyFromDecimal(item.amount, item.currency, lng)}</p>
      </div>
      <p className="text-xs text-slate-600">{formatDateTime(item.created_at, lng)} · <span className="font-mono">{item.reference}</span></p>
      <div className="flex flex-wrap items-center gap-1.5">
        <SenderStateLine item={item} />
        {item.action_needed ? <Badge variant="yellow">{t('action.badge')}</Badge> : null}
        <DeliveryNote delivery={delivery(item)} />
      </div>
      <div className="flex flex-wrap gap-2">
        {extra}
        <Button asChild size="sm" variant="ghost">
          <Link to={detailsHref(item)} aria-label={t('history.detailsOf', { reference: item.reference })}>{t('history.details')}</Link>
        </Button>
        <CancelTransferButton item={item} />
        <Button asChild size="sm" variant="outline">
          <Link to={again.to} state={again.state} aria-label={t('history.sendAgainOf', { reference: item.reference })}>
            <Repeat aria-hidden />{t('history.sendAgain')}
          </Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * Dashboard: welcome; first the transfers our team needs something for (their message and a
 * reply); counts; 6 recent transactions; up to 6 open requests; tips.
 */
export default function DashboardPage() {
  const { t } = useTranslation(['transfer', 'common']);
  const { user } = useSession();
  const summary = useSummary();
  const recent = useTransactionList({ limit: '6' });
  // Open transfers are few; those needing an answer are picked from them.
  const open = useTransactionList({ limit: '50', open: 'true' });
  const waiting = open.data?.filter((item) => item.action_needed) ?? [];
  // What shows above the counts (the transfers needing an answer, the limits card) comes in one
  // go: the page waits for both rather than pushing the counts down as each arrives.
  const kyc = useKyc();
  // Drawn in a transition (in slices, not one long task) once both are known.
  const settled = useDeferredValue(!open.isPending && !kyc.isPending);
  const firstOpen = useMemo(() => open.data?.slice(0, 6), [open.data]);

  const stats: [string, number | undefined][] = [
    [t('dashboard.transactions'), summary.data?.total],
    [t('status.pending'), summary.data?.pending],
    [t('status.processing'), summary.data?.processing],
    [t('status.completed'), summary.data?.completed],
  ];

  return (
    <PageShell width="wide">
      <RouteHeader
        path="/dashboard"
        name={displayName(user, t('common:user.fallback'))}
        actions={
          <>
            <Button asChild><Link to="/transfer"><Send aria-hidden />{t('dashboard.newTransfer')}</Link></Button>
            <Button asChild variant="outline"><Link to="/history"><History aria-hidden />{t('dashboard.history')}</Link></Button>
            <Button asChild variant="ghost"><Link to="/support"><LifeBuoy aria-hidden />{t('dashboard.support')}</Link></Button>
          </>
        }
      />
      {!settled ? <LoadingState className="min-h-96 items-start pt-12" /> : (<>
        {waiting.length > 0 ? (
          <Card className="mb-6 border-yellow-300 bg-yellow-50 p-4 sm:p-6" data-testid="action-needed-card">
            <h2 id="action-needed-title" className="flex items-center gap-2 text-lg font-semibold">
              <MessageSquareWarning aria-hidden className="size-5" />{t('dashboard.actionNeeded')}
            </h2>
            <p className="mt-1 text-sm text-slate-800">{t('dashboard.actionNeededHint')}</p>
            <ul className="mt-3 divide-y divide-yellow-200" aria-labelledby="action-needed-title">
              {waiting.map((item) => (
                <li key={item.id} className="py-3">
                  {item.action_message ? (
                    <blockquote className="mb-2 whitespace-pre-line break-words border-l-4 border-yellow-400 pl-3 text-sm">{item.action_message}</blockquote>
                  ) : null}
                  <TransferItem item={item} extra={(
                    <Button asChild size="sm">
                      <Link to={`${detailsHref(item)}&reply=1`} aria-label={t('action.replyOf', { reference: item.reference })}>{t('action.reply')}</Link>
                    </Button>
                  )} />
                </li>
              ))}
            </ul>
          </Card>
        ) : null}
        <KycCard />
        <section aria-label={t('dashboard.stats')} className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          {stats.map(([label, value]) => (
            <Card key={label} className="p-4 sm:p-5">
              <p className="text-sm text-slate-700">{label}</p>
              <p className="mt-1 text-3xl font-bold tabular-nums" data-testid={`stat-${label}`}>{value ?? '—'}</p>
            </Card>
          ))}
        </section>

        <div className="mt-6 grid gap-6 lg:grid-cols-2">
          <ListCard title={t('dashboard.recent')} query={recent} empty={t('dashboard.noTransactions')}
            render={(item) => <TransferItem item={item} />} />
          <ListCard title={t('dashboard.open')} query={{ ...open, data: firstOpen }} empty={t('dashboard.noOpen')} render={(item) => (
            <TransferItem item={item} extra={item.status === 'pending' && senderMustPay(item)
              ? <Button asChild size="sm"><Link to={`/pay/${item.transfer_request_id}`}>{t('history.payNow')}</Link></Button>
              : null} />
          )} />
        </div>

        <Card className="mt-6 bg-brand-50 p-5 sm:p-6">
          <h2 className="flex items-center gap-2 text-lg font-semibold"><Lightbulb aria-hidden className="size-5" />{t('dashboard.tipsTitle')}</h2>
          <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-800">
            {TIPS.map((tip) => <li key={tip}>{t(`dashboard.tips.${tip}`)}</li>)}
          </ul>
        </Card>
      </>)}
    </PageShell>
  );
}
