// When a transfer should reach its recipient (docs/rules/transfers.md#the-senders-history-screen): the corridor's processing time,
// counted from the moment the money was received (or the request, before that).

export interface DeliveryWindow {
  /** ISO times: the earliest and latest expected delivery. */
  earliest: string;
  latest: string;
}

const MINUTE = 60_000;

/** Adds business days (Monday-Friday, UTC) to a time; a weekend start counts from Monday. */
function addBusinessDays(from: Date, days: number): Date {
  const d = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6) left -= 1;
  }
  return d;
}

/**
 * The window a processing time such as "10-60 min", "2-4 h" or "1-2 business days" gives from a
 * start; null for a text it cannot read (then no promise is shown rather than a wrong one).
 */
export function deliveryWindow(processingTime: string, start: Date): DeliveryWindow | null {
  const m = /^(\d+)-(\d+) (min|h|business days)$/.exec(processingTime.trim());
  if (!m) return null;
  const low = Number(m[1]);
  const high = Number(m[2]);
  const unit = m[3];
  if (low > high) return null;
  const add = (n: number) => unit === 'min' ? new Date(start.getTime() + n * MINUTE)
    : unit === 'h' ? new Date(start.getTime() + n * 60 * MINUTE)
    : addBusinessDays(start, n);
  return { earliest: add(low).toISOString(), latest: add(high).toISOString() };
}

/** The moment a transfer's clock starts: when its payment was recorded, else when it was made. */
export function deliveryStart(t: { created_at: string; payment_recorded_at: string | null }): Date {
  return new Date(t.payment_recorded_at ?? t.created_at);
}

/** Late: still open (pending or processing) after the latest expected delivery. */
export function isLate(status: string, window: DeliveryWindow | null, now: Date): boolean {
  return window !== null && (status === 'pending' || status === 'processing') && now.getTime() > Date.parse(window.latest);
}
