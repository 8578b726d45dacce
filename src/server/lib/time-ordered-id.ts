import { randomUUID } from 'node:crypto';

/**
 * A UUID of version 7 (RFC 9562): the time in milliseconds, then 74 random bits. Rows keyed by it
 * are appended at the right edge of their primary key's index instead of at a random page of it,
 * which costs PostgreSQL less to write and to log; the random bits keep it unguessable. They are a
 * version 4 UUID's (its 12 bits after the version digit, its variant and 62 bits after): Node draws
 * those from entropy it fetches for many ids at once, where `randomBytes` would ask the kernel for each.
 */
export function timeOrderedId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}
