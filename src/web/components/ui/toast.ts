import { lazy, Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec §9: at most one toast shown at once. */
export const TOAST_LIMIT = 1;
/** How long a dismissed toast stays in the store (spec §4: removed after a delay). */
export const TOAST_REMOVE_DELAY = 1000;
/** How long a toast stays open unless dismissed. */
export const TOAST_DURATION = 6000;

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; 0 keeps it open. */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

type Listener = () => void;

let counter = 0;
let state: ToastItem[] = [];
const listeners = new Set<Listener>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
const closeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]): void {
  state = next;
  for (const l of listeners) l();
}

function scheduleRemove(id: string): void {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      emit(state.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

/** Closes one toast, or all of them without an id. */
export function dismissToast(id?: string): void {
  for (const t of state) {
    if (id === undefined || t.id === id) {
      const c = closeTimers.get(t.id);
      if (c) clearTimeout(c);
      closeTimers.delete(t.id);
      scheduleRemove(t.id);
    }
  }
  emit(state.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

/** Shows a toast (replacing the one shown, since the limit is one). */
export function toast(input: ToastInput): { id: string; dismiss: () => void; update: (p: ToastInput) => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const item: ToastItem = { variant: 'default', ...input, id, open: true };
  // Older toasts beyond the limit are dismissed then removed.
  const next = [item, ...state].slice(0, TOAST_LIMIT);
  for (const t of state) if (!next.includes(t)) {
    const c = closeTimers.get(t.id);
    if (c) clearTimeout(c);
    closeTimers.delete(t.id);
  }
  emit(next);
  const duration = input.duration ?? TOAST_DURATION;
  if (duration > 0) closeTimers.set(id, setTimeout(() => dismissToast(id), duration));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (p: ToastInput) => emit(state.map((t) => (t.id === id ? { ...t, ...p } : t))),
  };
}

function subscribe(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

function getSnapshot(): ToastItem[] {
  return state;
}

/** `const { toast } = useToast(); toast({ title, description, variant })` */
export function useToast(): { toasts: ToastItem[]; toast: typeof toast; dismiss: typeof dismissToast } {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts, toast, dismiss: dismissToast };
}

// The cards load on the first toast: they are not needed to show a page (home page budget).
const ToastCard = lazy(() => import('./toast-view'));

/** Renders the open toast(s). Mounted once, at the root. */
export function Toaster() {
  const { toasts } = useToast();
  const { t } = useTranslation('common');
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && state.some((x) => x.open)) dismissToast();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const open = toasts.filter((x) => x.open);
  return (
    <div
      role="region"
      aria-label={t('toast.region')}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex flex-col items-center p-4 sm:bottom-4 sm:left-auto sm:right-4 sm:items-end sm:p-0"
    >
      {/* Two live regions: polite for information, assertive for errors. */}
      <div role="status" aria-live="polite" aria-atomic="true" className="flex w-full flex-col items-center gap-2 sm:items-end">
        <Suspense fallback={null}>
          {open.filter((x) => x.variant !== 'destructive').map((x) => <ToastCard key={x.id} item={x} />)}
        </Suspense>
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true" className="flex w-full flex-col items-center gap-2 sm:items-end">
        <Suspense fallback={null}>
          {open.filter((x) => x.variant === 'destructive').map((x) => <ToastCard key={x.id} item={x} />)}
        </Suspense>
      </div>
    </div>
  );
}
