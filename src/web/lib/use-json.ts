import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { api, type ApiError } from './api';

export interface JsonState<T> {
  data: T | undefined;
  error: ApiError | Error | undefined;
  isPending: boolean;
  refetch: () => void;
}

/** Shared across components and navigations so a page revisit shows data at once. */
const cache = new Map<string, unknown>();

/**
 * A tiny GET hook for the home page, which must stay light (no TanStack Query there):
 * fetches `path` (nothing while it is null), refetches every `interval` ms while the tab is visible and when the person comes
 * back to it (focus), aborts on unmount.
 */
export function useJson<T>(path: string | null, interval?: number): JsonState<T> {
  const [data, setData] = useState<T | undefined>(() => (path ? cache.get(path) as T | undefined : undefined));
  const [error, setError] = useState<ApiError | Error | undefined>();
  const [tick, setTick] = useState(0);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!path) return undefined;
    const ctrl = new AbortController();
    controller.current = ctrl;
    api<T>(path, { signal: ctrl.signal }).then(
      (body) => {
        cache.set(path, body);
        // What the answer shows is drawn in a transition: in slices, not one long task.
        startTransition(() => {
          setData(body);
          setError(undefined);
        });
      },
      (e: unknown) => {
        if (!ctrl.signal.aborted) setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
    return () => ctrl.abort();
  }, [path, tick]);

  useEffect(() => {
    if (!interval || !path) return;
    const refresh = () => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1);
    };
    const id = window.setInterval(refresh, interval);
    window.addEventListener('focus', refresh);
    return () => {
      window.clearInterval(id);
      window.removeEventListener('focus', refresh);
    };
  }, [interval, path]);

  const refetch = useCallback(() => setTick((n) => n + 1), []);
  return { data, error, isPending: data === undefined && error === undefined, refetch };
}
