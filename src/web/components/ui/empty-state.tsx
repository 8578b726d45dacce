import type { ReactNode } from 'react';
import { Inbox } from 'lucide-react';
import { cn } from '@web/lib/utils';

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
