import { forwardRef, type SelectHTMLAttributes } from 'react';
import { ChevronDown } from '../icons';
import { cn } from '@web/lib/utils';
import { fieldClassName } from './input';

/** A styled native select: keyboard, screen reader and mobile pickers work out of the box. */
export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(
  ({ className, children, ...props }, ref) => (
    <div className="relative w-full min-w-0">
      <select ref={ref} className={cn(fieldClassName, 'h-10 appearance-none truncate py-2 pr-9', className)} {...props}>
        {children}
      </select>
      <ChevronDown aria-hidden className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
    </div>
  ),
);
Select.displayName = 'Select';
