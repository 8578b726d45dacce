import { describe, expect, it } from 'vitest';
import { SEED_CORRIDORS } from './fees.js';
import { deliveryStart, deliveryWindow, isLate } from './delivery.js';

describe('delivery window', () => {
  const start = new Date('2026-11-20T10:00:00.000Z'); // a Friday

  it('reads every seeded corridor processing time', () => {
    for (const c of SEED_CORRIDORS) expect(deliveryWindow(c.processing_time, start), c.direction).not.toBeNull();
  });

  it('counts minutes and hours from the start', () => {
    expect(deliveryWindow('10-60 min', start)).toEqual({ earliest: '2026-11-20T10:10:00.000Z', latest: '2026-11-20T11:00:00.000Z' });
    expect(deliveryWindow('2-4 h', start)).toEqual({ earliest: '2026-11-20T12:00:00.000Z', latest: '2026-11-20T14:00:00.000Z' });
  });

  it('skips the weekend for business days', () => {
    expect(deliveryWindow('1-2 business days', start)).toEqual({ earliest: '2026-11-23T10:00:00.000Z', latest: '2026-11-24T10:00:00.000Z' });
    const saturday = new Date('2026-11-21T09:00:00.000Z');
    expect(deliveryWindow('1-2 business days', saturday)?.latest).toBe('2026-11-24T09:00:00.000Z');
  });

  it('promises nothing for a text it cannot read', () => {
    expect(deliveryWindow('soon', start)).toBeNull();
    expect(deliveryWindow('60-10 min', start)).toBeNull();
  });

  it('starts the clock at the recorded payment, else at the request', () => {
    expect(deliveryStart({ created_at: '2026-11-20T10:00:00Z', payment_recorded_at: null }).toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(deliveryStart({ created_at: '2026-11-20T10:00:00Z', payment_recorded_at: '2026-11-21T08:00:00Z' }).toISOString()).toBe('2026-11-21T08:00:00.000Z');
  });

  it('is late only while open and past the latest time', () => {
    const w = deliveryWindow('10-60 min', start);
    const after = new Date('2026-11-20T11:00:01.000Z');
    expect(isLate('pending', w, after)).toBe(true);
    expect(isLate('processing', w, after)).toBe(true);
    expect(isLate('completed', w, after)).toBe(false);
    expect(isLate('pending', w, new Date('2026-11-20T10:59:00.000Z'))).toBe(false);
  });
});
