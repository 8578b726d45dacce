import { randomBytes } from 'node:crypto';

/**
 * A UUID of version 7 (RFC 9562): the time in milliseconds, then 74 random bits. Rows keyed by it
 * are appended at the right edge of their primary key's index instead of at a random page of it,
 * which costs PostgreSQL less to write and to log; the random bits keep it unguessable.
 */
export function timeOrderedId(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
