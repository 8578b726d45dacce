import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOrderedId } from './time-ordered-id.js';

describe('time-ordered ids (UUID version 7)', () => {
  it('are UUIDs of version 7 and RFC 9562\'s variant, which the API\'s uuid schema accepts', () => {
    const id = timeOrderedId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it('begin with their time in milliseconds, so later ids sort after earlier ones', () => {
    expect(timeOrderedId(Date.UTC(2026, 10, 27, 12)).replace(/-/g, '').slice(0, 12)).toBe(Date.UTC(2026, 10, 27, 12).toString(16).padStart(12, '0'));
    const ids = [1, 2, 3, 1_000, 86_400_000].map((ms) => timeOrderedId(Date.UTC(2026, 10, 27) + ms));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differ within one millisecond (74 random bits)', () => {
    const now = Date.now();
    expect(new Set(Array.from({ length: 1_000 }, () => timeOrderedId(now))).size).toBe(1_000);
  });
});
