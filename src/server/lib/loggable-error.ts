import pino from 'pino';

// A failed query's error carries the values it was given: drizzle writes them into its message
// and stack ("Failed query: … params: …") and keeps them as `params`; PostgreSQL quotes them in
// its message ('value "…" is out of range') and its `detail` ("Key (email)=(…) already exists").
// Those values are e-mails, password hashes, phone numbers: logs keep the statement and
// PostgreSQL's reason and code, never the values.

/** Fields of an error (at any depth of its causes) that hold a query's values. */
const VALUE_FIELDS = new Set(['params', 'parameters', 'detail']);
const MAX_CAUSES = 5;

/** A quoted text in PostgreSQL's message, unless it names an object (relation "profiles"). */
const QUOTED_VALUE = /(?<!\b(?:relation|column|constraint|table|index|type|function|schema|sequence|encoding|database|role|operator|enum|trigger) )"(?:[^"]|"")*"/g;

/** PostgreSQL's own errors (pg's DatabaseError) carry its severity. */
const fromPostgres = (err: Error) => typeof (err as { severity?: unknown }).severity === 'string';

/** A copy of `err` without the query values, of the same class (logs name it). */
function withoutValues(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > MAX_CAUSES) return err;
  const query = (err as { query?: unknown }).query;
  const message = typeof query === 'string' && 'params' in err ? `Failed query: ${query}`
    : fromPostgres(err) ? err.message.replace(QUOTED_VALUE, '"…"') : err.message;
  const copy = Object.create(Object.getPrototypeOf(err) as object) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries(err)) if (!VALUE_FIELDS.has(key)) copy[key] = value;
  copy.message = message;
  if (err.stack !== undefined) copy.stack = err.stack.replace(err.message, message);
  if (err.cause !== undefined) copy.cause = withoutValues(err.cause, depth + 1);
  return copy;
}

/** pino's error serializer, on the error without its query values: the logger's `err`. */
export function loggableError(err: unknown): ReturnType<typeof pino.stdSerializers.err> {
  return pino.stdSerializers.err(withoutValues(err) as Error);
}
