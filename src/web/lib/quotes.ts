import { useEffect, useRef, useState } from 'react';
import type { PricePreview, PromisedQuote } from '@core/api/pricing';
import type { DirectionId } from '@core/channels';
import type { Decimal } from '@core/money';
import { api, isApiError, type ApiError } from './api';

// A quote is a promise (docs/rules/fees-and-rates.md#a-quote-is-a-promise): the screens ask the
// server for it, from what the sender pays or from what the recipient gets.

/** What a price is asked for: exactly one of what the sender pays (before the fee) and what the recipient gets. */
export type QuoteAsk = { direction: DirectionId } & ({ amount: Decimal; payout?: undefined } | { payout: Decimal; amount?: undefined });

/**
 * A quote as the page holds it: with `held_until`, its expiry on this device's clock. The server's
 * clock decides expiry; a phone's clock may be minutes off, so the time left is what the server
 * gave (expires_at − its Date header) counted from the answer's arrival.
 */
export type HeldQuote = PromisedQuote & { held_until: number };

/** The server's clock at an answer, from its Date header (to the second), or this device's when absent. */
export function serverClock(): { onResponse: (res: Response) => void; hold: (quote: PromisedQuote) => HeldQuote } {
  let date = NaN;
  return {
    onResponse: (res) => {
      date = Date.parse(res.headers.get('date') ?? '');
    },
    hold: (quote) => {
      const now = Date.now();
      const left = Date.parse(quote.expires_at) - (Number.isNaN(date) ? now : date);
      return { ...quote, held_until: now + left };
    },
  };
}

/** POST /api/quotes: a firm price with its id and expiry. */
export async function askQuote(ask: QuoteAsk, signal?: AbortSignal): Promise<HeldQuote> {
  const clock = serverClock();
  return clock.hold((await api<{ data: PromisedQuote }>('/api/quotes', { method: 'POST', body: ask, signal, onResponse: clock.onResponse })).data);
}

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

/** Whole seconds left until `heldUntil` (ms on this device's clock), never below 0. */
export function secondsLeft(heldUntil: number, now: number): number {
  return Math.max(0, Math.floor((heldUntil - now) / 1000));
}

/** Time left as a countdown: "29:41" under an hour, else hours and minutes. */
export function countdownParts(seconds: number): { clock: string } | { hours: number; minutes: number } {
  if (seconds >= 3600) return { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) };
  const two = (n: number) => String(n).padStart(2, '0');
  return { clock: `${two(Math.floor(seconds / 60))}:${two(seconds % 60)}` };
}

/** The value an amount field is filled with: the decimal as the language writes it, grouped ("91,500", "150,00"). */
export { formatDecimalText as fieldText } from './format';
