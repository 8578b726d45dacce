import type { HTMLAttributes } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '@web/lib/utils';

const alertVariants = cva('rounded-lg border px-4 py-3 text-sm', {
  variants: {
    variant: {
      default: 'border-brand-200 bg-brand-50 text-brand-900',
      destructive: 'border-red-300 bg-red-50 text-red-900',
      success: 'border-green-300 bg-green-50 text-green-900',
      warning: 'border-yellow-300 bg-yellow-50 text-yellow-900',
    },
  },
  defaultVariants: { variant: 'default' },
});

/** An inline message box (e.g. the login page's red failure box). Errors are announced (role=alert). */
export function Alert({ className, variant, role, ...props }: HTMLAttributes<HTMLDivElement> & VariantProps<typeof alertVariants>) {
  return (
    <div role={role ?? (variant === 'destructive' ? 'alert' : 'status')} className={cn(alertVariants({ variant }), className)} {...props} />
  );
}
