// The one codec of the keyset cursors that page every list by (created_at, id). The timestamp
// travels as PostgreSQL's own text, microseconds included (a JavaScript Date would round them
// away and skip rows). A cursor comes back from the client, so decoding is strict: anything the
// database could not read as a timestamp and a uuid is refused here, never sent to SQL.

export interface Cursor {
  /** created_at as PostgreSQL writes timestamptz::text, e.g. "2026-11-22 16:50:02.123456+00". */
  at: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PG_TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?([+-])(\d{2})(?::(\d{2}))?$/;

/** Longest cursor text looked at: a timestamp, a uuid and base64's growth fit well within it. */
const MAX_CURSOR_TEXT = 200;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

function isRealTimestamp(at: string): boolean {
  const m = PG_TIMESTAMPTZ.exec(at);
  if (!m) return false;
  const [year, month, day, hour, minute, second, , offsetHours, offsetMinutes = '0'] = m.slice(1).map((part) => part ?? '0');
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return Number(year) >= 1 && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day)
    && Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60
    && Number(offsetHours) <= 15 && Number(offsetMinutes) < 60;
}

/** The position a cursor names, or null when it is not one this server wrote. */
export function decodeCursor(raw: string): Cursor | null {
  if (raw.length > MAX_CURSOR_TEXT || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  const parts = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (parts.length !== 2) return null;
  const [at = '', id = ''] = parts;
  return isRealTimestamp(at) && UUID.test(id) ? { at, id } : null;
}
