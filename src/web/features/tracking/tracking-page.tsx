import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CircleCheck, CircleX, Clock, Send, Unlink } from 'lucide-react';
import type { TrackingJson } from '@core/api/tracking';
import { recipientHeldState } from '@core/sender-state';
import { StateLine } from '@web/components/sender-state';
import { PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Badge, StatusBadge } from '@web/components/ui/badge';
import { Card, CardContent } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { useTracking } from './use-tracking';

/**
 * The recipient's tracking page (/t/{token}, docs/rules/transfers.md#tracking-link): no sign-in, what GET /api/track/{token} allows
 * and nothing more. A revoked or unknown link says so plainly.
 */
export default function TrackingPage() {
  const { token = '' } = useParams();
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const tracked = useTracking(token, i18n.resolvedLanguage);

  return (
    <PageShell width="narrow" className="max-w-xl">
      {tracked.isPending ? <LoadingState /> : tracked.isError ? (
        isApiError(tracked.error) && tracked.error.status === 404 ? <LinkNotFound /> : (
          <Alert variant="destructive">{tracked.error.message || t('common:errors.generic')}</Alert>
        )
      ) : <Tracked data={tracked.data} />}
    </PageShell>
  );
}

function LinkNotFound() {
  const { t } = useTranslation('transfer');
  return (
    <div className="py-8 text-center" data-testid="tracking-not-found">
      <Unlink aria-hidden className="mx-auto size-10 text-slate-500" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{t('tracking.notFoundTitle')}</h1>
      <p className="mx-auto mt-3 max-w-md text-slate-700">{t('tracking.notFoundText')}</p>
    </div>
  );
}

const STATUS_ICONS = { pending: Clock, processing: Send, completed: CircleCheck, rejected: CircleX, cancelled: CircleX } as const;

function Tracked({ data }: { data: TrackingJson }) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const Icon = STATUS_ICONS[data.status];
  const amount = moneyFromDecimal(data.payout_amount, data.payout_currency, lng);
  const held = recipientHeldState(data);
  return (
    <div className="grid gap-6">
      <div>
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t('tracking.eyebrow')}</p>
        <h1 className="mt-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {data.recipient_first_name ? t('tracking.heading', { name: data.recipient_first_name }) : t('tracking.headingNoName')}
        </h1>
      </div>
      <Card>
        <CardContent className="grid gap-5 pt-5 sm:pt-6">
          {/* Held: the sender's own sentence and "nothing to do", never why (src/core/sender-state.ts), with its own one icon. */}
          {held ? <StateLine state={held} sentence={t(`senderState.${held.key}`)} advice={t(`senderAdvice.${held.advice}`)} /> : (
            <div className="flex items-start gap-3">
              <Icon aria-hidden className="mt-0.5 size-6 shrink-0 text-brand-700" />
              <div className="min-w-0">
                <StatusBadge status={data.status} data-testid="tracking-status">{t(`status.${data.status}`)}</StatusBadge>
                <p className="mt-2 text-slate-800">{t(`tracking.statusText.${data.status}`)}</p>
              </div>
            </div>
          )}
          <dl className="grid gap-4 text-sm">
            <div>
              <dt className="text-slate-600">{t('tracking.amount')}</dt>
              <dd className="text-2xl font-bold tabular-nums text-slate-900" data-testid="tracking-amount">{amount}</dd>
            </div>
            {data.recipient_phone_masked ? (
              <div>
                <dt className="text-slate-600">{t(data.status === 'completed' ? 'tracking.phone' : 'tracking.phoneToBePaid')}</dt>
                <dd className="font-mono tracking-wider" aria-label={t('tracking.phoneEnding', { digits: data.recipient_phone_masked.slice(-3) })}>
                  {data.recipient_phone_masked}
                </dd>
              </div>
            ) : null}
            {data.delivery ? (
              <div>
                <dt className="text-slate-600">{t('delivery.label')}</dt>
                <dd className="text-slate-800">
                  {t('delivery.window', { earliest: formatDateTime(data.delivery.earliest, lng), latest: formatDateTime(data.delivery.latest, lng) })}
                  {data.late ? (
                    <span className="mt-2 flex flex-wrap items-center gap-2">
                      <Badge variant="red">{t('delivery.late')}</Badge>
                      <span>{t('tracking.late')}</span>
                    </span>
                  ) : null}
                </dd>
              </div>
            ) : null}
            {data.payout_reference ? (
              <div>
                <dt className="text-slate-600">{t('tracking.payoutReference')}</dt>
                <dd className="break-all font-mono" data-testid="tracking-payout-reference">{data.payout_reference}</dd>
              </div>
            ) : null}
          </dl>
        </CardContent>
      </Card>
      <p className="text-sm text-slate-600">{t('tracking.privacy')}</p>
    </div>
  );
}
