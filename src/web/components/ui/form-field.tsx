import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '@web/lib/utils';
import { Label } from './label';

interface ControlProps {
  id?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  'aria-required'?: boolean;
}

/**
 * A label, one control, an optional hint and an error text under the field.
 * Wires id / aria-invalid / aria-describedby / aria-required onto the control.
 */
export function FormField({
  label,
  children,
  error,
  hint,
  required,
  id: idProp,
  className,
  labelAction,
}: {
  label: ReactNode;
  children: ReactElement<ControlProps>;
  error?: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  id?: string;
  className?: string;
  /** Something shown at the right of the label (e.g. a "Forgot password?" link). */
  labelAction?: ReactNode;
}) {
  const auto = useId();
  const id = idProp ?? children.props.id ?? `f${auto}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [children.props['aria-describedby'], hintId, errorId].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id,
        'aria-invalid': error ? true : children.props['aria-invalid'],
        'aria-describedby': describedBy,
        'aria-required': required || children.props['aria-required'],
      })
    : children;
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>
          {label}
          {required ? (
            <span aria-hidden className="ml-0.5 text-destructive">
              *
            </span>
          ) : null}
        </Label>
        {labelAction}
      </div>
      {control}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
