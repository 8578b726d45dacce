import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';

const ID = '0b5c6a3e-8f1d-4c2a-9e7b-1d2c3b4a5f60';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('page cursors', () => {
  it('round-trip PostgreSQL timestamps with microseconds and any offset', () => {
    for (const at of ['2026-11-22 16:50:02.123456+00', '2026-02-28 23:59:59+01', '1999-12-31 00:00:00.5-05:30']) {
      expect(decodeCursor(encodeCursor({ at, id: ID }))).toEqual({ at, id: ID });
    }
  });

  it.each([
    ['JavaScript-only dates', b64(`1|${ID}`)],
    ['ISO with a T', b64(`2026-11-22T16:50:02Z|${ID}`)],
    ['month 13', b64(`2026-13-01 00:00:00+00|${ID}`)],
    ['30 February', b64(`2026-02-30 00:00:00+00|${ID}`)],
    ['hour 24', b64(`2026-11-22 24:00:00+00|${ID}`)],
    ['year 0', b64(`0000-01-01 00:00:00+00|${ID}`)],
    ['an offset of 99 hours', b64(`2026-11-22 10:00:00+99|${ID}`)],
    ['a uuid of dashes', b64(`2026-11-22 10:00:00+00|${'-'.repeat(36)}`)],
    ['a third part', b64(`2026-11-22 10:00:00+00|${ID}|x`)],
    ['SQL', b64(`2026-11-22 10:00:00+00'; drop table profiles; --|${ID}`)],
    ['not base64url', '2026-11-22+10:00|x'],
    ['too long', 'A'.repeat(201)],
    ['empty', ''],
  ])('refuse %s', (_name, raw) => {
    expect(decodeCursor(raw)).toBeNull();
  });
});
