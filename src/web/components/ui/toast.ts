import { useSyncExternalStore, type ReactNode } from 'react';

// The toast store: features call toast()/useToast(); <Toaster> (./toaster.tsx) shows what it holds.

/** At most one toast shown at once. */
const TOAST_LIMIT = 1;
/** How long a dismissed toast stays in the store before it is removed. */
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
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter += 1;
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
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

function getSnapshot(): ToastItem[] {
  return state;
}

export function hasOpenToast(): boolean {
  return state.some((t) => t.open);
}

/** `const { toast } = useToast(); toast({ title, description, variant })` */
export function useToast(): { toasts: ToastItem[]; toast: typeof toast; dismiss: typeof dismissToast } {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts, toast, dismiss: dismissToast };
}
