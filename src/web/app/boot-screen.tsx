/** Shown while the first translations load (no text: nothing is translated yet). */
export function BootScreen() {
  return (
    <div className="flex min-h-dvh items-center justify-center" aria-busy="true">
      <span aria-hidden className="inline-block size-8 animate-spin rounded-full border-2 border-brand-600 border-r-transparent" />
    </div>
  );
}
