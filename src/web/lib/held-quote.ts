import type { PromisedQuote } from '@core/api/pricing';
import { api } from './api';
import type { QuoteAsk } from './quotes';

// The firm quote the transfer's review holds (docs/rules/fees-and-rates.md#a-quote-is-a-promise),
// apart from ./quotes.ts: the home page, which shares that file, never asks for one.

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
