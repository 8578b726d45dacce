import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, hasOpenToast, TOAST_DURATION, TOAST_REMOVE_DELAY, toast } from './toast';

// The store alone: <Toaster> (./toaster.tsx) only shows what it holds.
describe('toast store', () => {
  afterEach(() => {
    dismissToast();
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it('shows one toast at a time, closes it on dismiss and by itself after its duration', () => {
    vi.useFakeTimers();
    expect(hasOpenToast()).toBe(false);
    const first = toast({ title: 'Saved' });
    expect(hasOpenToast()).toBe(true);
    first.dismiss();
    expect(hasOpenToast()).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY);

    toast({ title: 'Sent' });
    vi.advanceTimersByTime(TOAST_DURATION - 1);
    expect(hasOpenToast()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(hasOpenToast()).toBe(false);
  });

  it('keeps a toast with duration 0 open until dismissed', () => {
    vi.useFakeTimers();
    toast({ title: 'Read me', duration: 0 });
    vi.advanceTimersByTime(10 * TOAST_DURATION);
    expect(hasOpenToast()).toBe(true);
    dismissToast();
    expect(hasOpenToast()).toBe(false);
  });
});
