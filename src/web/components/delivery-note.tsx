import { useTranslation } from 'react-i18next';
import { deliveryStart, deliveryWindow, isLate, type DeliveryWindow } from '@core/delivery';
import { Badge } from '@web/components/ui/badge';
import { formatDateTime } from '@web/lib/format';
import { useFees } from '@web/lib/queries';

/** What a transfer needs for its delivery estimate: the clock starts when the payment is recorded. */
interface Timed {
  direction: string;
  status: string;
  created_at: string;
  payment_recorded_at?: string | null;
}

export interface Delivery {
  window: DeliveryWindow;
  late: boolean;
}

/**
 * A transfer's expected delivery from its corridor's processing time (the published fees data),
 * while it is open; null once it is closed or while the corridors load.
 */
export function useDelivery(): (t: Timed) => Delivery | null {
  const fees = useFees();
  return (t) => {
    if (t.status !== 'pending' && t.status !== 'processing') return null;
    // Counted from the payment: while it is not in, no arrival time is promised.
    if (!t.payment_recorded_at) return null;
    const corridor = fees.data?.corridors.find((c) => c.direction === t.direction);
    const window = corridor ? deliveryWindow(corridor.processing_time, deliveryStart({ created_at: t.created_at, payment_recorded_at: t.payment_recorded_at ?? null })) : null;
    return window ? { window, late: isLate(t.status, window, new Date()) } : null;
  };
}

/** "Expected by …", or a "Late" badge with the time it was expected by. */
export function DeliveryNote({ delivery, long = false }: { delivery: Delivery | null; long?: boolean }) {
  const { t, i18n } = useTranslation('transfer');
  const lng = i18n.resolvedLanguage ?? 'en';
  if (!delivery) return null;
  const latest = formatDateTime(delivery.window.latest, lng);
  if (delivery.late) {
    return (
      <span className="inline-flex flex-wrap items-center gap-1.5 text-xs text-slate-700" data-testid="delivery">
        <Badge variant="red">{t('delivery.late')}</Badge>
        {long ? t('delivery.lateText', { time: latest }) : t('delivery.expectedBy', { time: latest })}
      </span>
    );
  }
  return (
    <span className="text-xs text-slate-700" data-testid="delivery">
      {long ? t('delivery.window', { earliest: formatDateTime(delivery.window.earliest, lng), latest }) : t('delivery.expectedBy', { time: latest })}
    </span>
  );
}
