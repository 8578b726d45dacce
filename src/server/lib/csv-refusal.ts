import { AppError, Message } from '@core/errors.js';

/** A line of an uploaded CSV that could not be read: its column and a message key of the `admin` namespace. */
interface CsvLineError {
  line: number;
  column: string;
  key: string;
}

/**
 * The one refusal of an uploaded statement CSV (`400 csv_invalid`): how many errors, the first in
 * words, and each reported one by line and column, in the caller's language.
 */
export function csvInvalid(parsed: { errors: CsvLineError[]; count: number }, currency: string): AppError {
  const messages = parsed.errors.map((e) => new Message(`admin.${e.key}`, { line: e.line, column: e.column, currency, max: 10_000 }));
  return new AppError('csv_invalid', {
    vars: { count: parsed.count, first: messages[0]! },
    fields: Object.fromEntries(parsed.errors.map((e, i) => [`lines.${e.line}.${e.column}`, messages[i]!])),
    extra: { lines: parsed.errors.map((e, i) => ({ line: e.line, column: e.column, message: messages[i] })) },
  });
}
