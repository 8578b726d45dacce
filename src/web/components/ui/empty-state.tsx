import type { ReactNode } from 'react';
import { icon as drawIcon } from '@web/components/icons';
import { cn } from '@web/lib/utils';

// Lucide's inbox drawn as plain SVG: lucide-react's shared chunk stays off pages that need no other icon (/fees).
const Inbox = drawIcon(<polyline points="22 12 16 12 14 15 10 15 8 12 2 12" />, 'M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z');

export function EmptyState({
  title,
  description,
  icon,
  action,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-input px-6 py-10 text-center', className)}>
      <div aria-hidden className="mb-1 text-slate-400">{icon ?? <Inbox className="size-8" />}</div>
      <p className="font-medium text-foreground">{title}</p>
      {description ? <p className="max-w-md text-sm text-muted-foreground">{description}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
