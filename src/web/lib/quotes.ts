import { useEffect, useRef, useState } from 'react';
import type { FeesResponse, PricePreview, RatesResponse } from '@core/api/pricing';
import type { DirectionId } from '@core/channels';
import type { Decimal } from '@core/money';
import { api, isApiError, type ApiError } from './api';
import { useJson } from './use-json';

// A quote is a promise (docs/rules/fees-and-rates.md#a-quote-is-a-promise): the screens ask the
// server for it, from what the sender pays or from what the recipient gets. The price of what is
// typed here; the firm quote the review holds in ./held-quote.ts, which the home page never loads.

/** What a price is asked for: exactly one of what the sender pays (before the fee) and what the recipient gets. */
export type QuoteAsk = { direction: DirectionId } & ({ amount: Decimal; payout?: undefined } | { payout: Decimal; amount?: undefined });

// The published fee tiers and rates a price is computed from, read with the light useJson (not
// TanStack Query): the home page and /fees stay light. `interval`: refreshed every so many ms.

/** GET /api/fees: the fee tiers and corridors. */
export const usePublishedFees = (interval?: number) => useJson<FeesResponse>('/api/fees', interval);

/** GET /api/rates: the stored rates and when they were updated. */
export const usePublishedRates = (interval?: number) => useJson<RatesResponse>('/api/rates', interval);

/**
 * POST /api/quotes/preview: the price of what is typed, stored nowhere (no id, no expiry). Typing
 * asks this one, counted apart from the stored quotes, so no pause in the typing stores a promise
 * or spends what the review's quote needs (docs/rules/fees-and-rates.md#rates-on-screen).
 */
export async function askPrice(ask: QuoteAsk, signal?: AbortSignal): Promise<PricePreview> {
  return (await api<{ data: PricePreview }>('/api/quotes/preview', { method: 'POST', body: ask, signal })).data;
}

/** A stable text of an ask, to tell whether an answer is for what is typed now. */
export const askKey = (ask: QuoteAsk | null) => (ask ? `${ask.direction}|${ask.amount ?? ''}|${ask.payout ?? ''}` : '');

export interface LiveQuote {
  /** The server's price for the ask of `key`, if it came (a price, not a quote: the review asks that). */
  quote: PricePreview | null;
  /** Its refusal (limit_exceeded, kyc_required, rate_stale…), if it was refused. */
  error: ApiError | null;
  /** The ask the answer or refusal is for. */
  key: string;
  /** Whether an answer for the current ask is awaited. */
  pending: boolean;
}

/**
 * The price of what is being typed, asked `delay` ms after the typing stops (and again when
 * `version`, the published prices' version, changes); an older answer never replaces a newer ask's.
 */
export function useLiveQuote(ask: QuoteAsk | null, version: string, delay = 400): LiveQuote {
  const key = askKey(ask);
  const [state, setState] = useState<{ quote: PricePreview | null; error: ApiError | null; key: string; version: string }>({
    quote: null, error: null, key: '', version: '',
  });
  const latest = useRef(ask);
  latest.current = ask;
  useEffect(() => {
    const current = latest.current;
    if (!current) return undefined;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      askPrice(current, controller.signal).then(
        (quote) => setState({ quote, error: null, key, version }),
        (err: unknown) => {
          if (controller.signal.aborted) return;
          setState({ quote: null, error: isApiError(err) ? err : null, key, version });
        },
      );
    }, delay);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [key, version, delay]);
  const current = state.key === key;
  return {
    quote: current ? state.quote : null,
    error: current ? state.error : null,
    key: state.key,
    pending: !!ask && (!current || state.version !== version),
  };
}

/** The value an amount field is filled with: the decimal as the language writes it, grouped ("91,500", "150,00"). */
export { formatDecimalText as fieldText } from './format';
