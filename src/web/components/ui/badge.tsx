import type { HTMLAttributes } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '@web/lib/utils';
import { statusColor } from '@core/status';

const badgeVariants = cva('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap', {
  variants: {
    variant: {
      default: 'border-transparent bg-brand-700 text-white',
      secondary: 'border-transparent bg-muted text-slate-800',
      outline: 'border-input text-foreground',
      yellow: 'border-yellow-300 bg-yellow-100 text-yellow-900',
      green: 'border-green-300 bg-green-100 text-green-900',
      red: 'border-red-300 bg-red-100 text-red-900',
      blue: 'border-blue-300 bg-blue-100 text-blue-900',
      gray: 'border-slate-300 bg-slate-100 text-slate-800',
    },
  },
  defaultVariants: { variant: 'default' },
});

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement>, VariantProps<typeof badgeVariants> {}

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}

/** Yellow pending, green completed, red rejected, blue otherwise (docs/rules/transfers.md#statuses). */
function statusBadgeVariant(status: string): 'yellow' | 'green' | 'red' | 'blue' {
  return statusColor(status);
}

/** A transfer status badge; pass the translated label as children (defaults to the raw status). */
export function StatusBadge({ status, className, children, ...props }: { status: string } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <Badge variant={statusBadgeVariant(status)} data-status={status} className={className} {...props}>
      {children ?? status}
    </Badge>
  );
}
