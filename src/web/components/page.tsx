import type { ReactNode } from 'react';
import { cn } from '../lib/utils';

const widths = { narrow: 'max-w-3xl', default: 'max-w-5xl', wide: 'max-w-7xl' } as const;

/** The page container: centred, padded, responsive from 360 px. */
export function PageShell({ children, className, width = 'default' }: { children: ReactNode; className?: string; width?: keyof typeof widths }) {
  return <div className={cn('mx-auto w-full px-4 py-8 sm:px-6 sm:py-12 lg:px-8', widths[width], className)}>{children}</div>;
}

/** The page's h1, an optional lead paragraph and actions. */
export function PageHeader({ title, description, actions, className }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <div className={cn('mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div className="min-w-0">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        {description ? <p className="mt-3 max-w-2xl text-base text-slate-700 sm:text-lg">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
