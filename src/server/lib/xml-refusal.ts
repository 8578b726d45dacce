import { AppError, type ErrorCode } from '@core/errors.js';

/**
 * How a streaming XML reader (saxes) refuses its file: the parser's own errors (not well-formed)
 * and the reader's alike become the one error code of that file, and a refused reader stays refused.
 */
export class XmlRefusal {
  private refused = false;

  constructor(private readonly code: ErrorCode) {}

  /** Runs a step of the parser; any error it throws refuses the file. */
  guard(step: () => void): void {
    if (this.refused) throw new AppError(this.code);
    try {
      step();
    } catch {
      this.fail();
    }
  }

  /** Refuses the file (a reader's field holding this is typed, so TypeScript knows nothing follows). */
  fail(): never {
    this.refused = true;
    throw new AppError(this.code);
  }
}
