import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleCheck as CheckCircle2, CircleAlert as AlertCircle, Info, X } from '../icons';
import { cn } from '../../lib/utils';

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

const variantClass: Record<ToastVariant, string> = {
  default: 'border-border bg-white text-foreground',
  success: 'border-green-300 bg-green-50 text-green-900',
  destructive: 'border-red-300 bg-red-50 text-red-900',
};

const VariantIcon = ({ variant }: { variant: ToastVariant }) => {
  const cls = 'mt-0.5 size-5 shrink-0';
  if (variant === 'success') return <CheckCircle2 aria-hidden className={cn(cls, 'text-green-700')} />;
  if (variant === 'destructive') return <AlertCircle aria-hidden className={cn(cls, 'text-red-700')} />;
  return <Info aria-hidden className={cn(cls, 'text-brand-700')} />;
};

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
        {open.filter((x) => x.variant !== 'destructive').map((x) => <ToastCard key={x.id} item={x} />)}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true" className="flex w-full flex-col items-center gap-2 sm:items-end">
        {open.filter((x) => x.variant === 'destructive').map((x) => <ToastCard key={x.id} item={x} />)}
      </div>
    </div>
  );
}

function ToastCard({ item }: { item: ToastItem }) {
  const { t } = useTranslation('common');
  const variant = item.variant ?? 'default';
  return (
    <div
      data-testid="toast"
      data-variant={variant}
      className={cn(
        'pointer-events-auto flex w-full max-w-sm animate-toast-in items-start gap-3 rounded-lg border p-4 shadow-lg',
        variantClass[variant],
      )}
    >
      <VariantIcon variant={variant} />
      <div className="min-w-0 flex-1 text-sm">
        {item.title ? <p className="font-semibold">{item.title}</p> : null}
        {item.description ? <p className="mt-1 break-words opacity-90">{item.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(item.id)}
        className="-m-1 rounded p-1 opacity-70 hover:opacity-100"
        aria-label={t('actions.close')}
      >
        <X aria-hidden className="size-4" />
      </button>
    </div>
  );
}
