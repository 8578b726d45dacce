import type { ReactNode } from 'react';
import { APP_NAME, LogoMark } from './logo';

/**
 * Shown while the first translations load: the same bare header as the static shell in index.html
 * (nothing is translated yet, so no text but the brand). The build puts a signed-in page's heading
 * under it (`children`, src/web/prerender.tsx).
 */
export function BootScreen({ children }: { children?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col" aria-busy="true">
      <header className="sticky top-0 z-40 border-b border-border bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8">
          <span className="flex items-center gap-2">
            <LogoMark />
            <span className="text-lg font-bold tracking-tight text-slate-900">{APP_NAME}</span>
          </span>
        </div>
      </header>
      <main className="flex-1">{children}</main>
    </div>
  );
}
