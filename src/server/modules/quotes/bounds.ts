import type { Logger } from 'pino';
import { AppError } from '@core/errors.js';
import type { Db } from '@server/db/client.js';
import { countQuotesSince, deleteOpenQuote } from './repo.js';

// How many quotes are stored (docs/rules/fees-and-rates.md#a-quote-is-a-promise): at most
// QUOTES_PER_HOUR in any hour by every caller together, and at most OPEN_QUOTES_PER_ADDRESS open
// ones kept for a signed-out caller's address. Neither costs a quote a statement: the hour's count
// is read from the database at most every REFRESH_MS, in the background, while a process is asked
// quotes, and this process's own quotes since are added to it; the open quotes of each address
// are known in the process that stored them.

/** A signed-out caller's open (unexpired, unused) quotes kept per address: the oldest goes past it. */
export const OPEN_QUOTES_PER_ADDRESS = 20;
/** How often the hour's count is read again while quotes are asked. */
const REFRESH_MS = 10_000;
/**
 * Addresses whose open quotes a process follows, about: those seen last, in two generations of
 * half as many each (the older dropped whole when the newer is full, so no address is forgotten
 * one at a time, which a Map does slowly from its front).
 */
const FOLLOWED_ADDRESSES = 100_000;
/** What a refusal at the ceiling tells the caller: try again in 5 minutes. */
export const CEILING_RETRY_MINUTES = 5;

interface Open { id: string; expires: number }

export class QuoteBounds {
  /** Quotes stored in the hour before the last read began (every process's). */
  private counted = 0;
  /** Quotes this process stored since that read began. */
  private since = 0;
  private readAt = Number.NEGATIVE_INFINITY;
  /** The read under way: the process's first is awaited, the others never. */
  private reading: Promise<void> | null = null;
  private readOnce = false;
  /** Each followed address's open quotes, oldest first: seen lately, and seen before that. */
  private recent = new Map<string, Open[]>();
  private older = new Map<string, Open[]>();

  constructor(private readonly db: Db, private readonly perHour: number, private readonly log: Pick<Logger, 'warn'>) {}

  /** Refuses a quote (429 `rate_limited`) once the hour's ceiling is reached. */
  async admit(now = Date.now()): Promise<void> {
    if (now - this.readAt >= REFRESH_MS) this.refresh(now);
    // The process's first quotes wait for its first count (a process started at the ceiling refuses at once).
    if (!this.readOnce) await this.reading;
    if (this.counted + this.since >= this.perHour) throw new AppError('rate_limited', { vars: { count: CEILING_RETRY_MINUTES } });
  }

  /**
   * A quote was stored: counted; a signed-out caller's (`address` given) is kept among its
   * address's open quotes, and past {@link OPEN_QUOTES_PER_ADDRESS} the oldest open one is
   * deleted (unless used meanwhile).
   */
  async kept(address: string | null, id: string, expiresAt: string, now = Date.now()): Promise<void> {
    this.since += 1;
    if (address === null) return;
    let known = this.recent.get(address);
    if (!known) {
      known = this.older.get(address) ?? [];
      if (this.recent.size >= FOLLOWED_ADDRESSES / 2) {
        this.older = this.recent;
        this.recent = new Map();
      }
      this.recent.set(address, known);
    }
    // Expired ones are no longer open.
    for (let i = known.length - 1; i >= 0; i--) if (known[i]!.expires <= now) known.splice(i, 1);
    known.push({ id, expires: Date.parse(expiresAt) });
    const gone = known.length > OPEN_QUOTES_PER_ADDRESS ? known.splice(0, known.length - OPEN_QUOTES_PER_ADDRESS) : [];
    // The quote asked is stored and answered whatever happens to the deletion (it is retried by nobody:
    // the clean-up deletes the quote once it has expired).
    for (const q of gone) {
      await deleteOpenQuote(this.db, q.id)
        .catch((err: unknown) => this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'quotes: an address\'s oldest open quote could not be deleted'));
    }
  }

  /** The hour's count read again in the background; the quotes admitted meanwhile stay counted (counted twice at worst). */
  private refresh(now: number): void {
    if (this.reading) return;
    this.readAt = now;
    const before = this.since;
    this.reading = countQuotesSince(this.db, new Date(now - 3_600_000), this.perHour)
      .then((n) => {
        this.counted = n;
        this.since -= before;
      })
      .catch((err: unknown) => this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'quotes: the hour\'s count could not be read'))
      .finally(() => {
        this.reading = null;
        this.readOnce = true;
      });
  }
}
