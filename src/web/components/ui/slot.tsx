import { cloneElement, forwardRef, isValidElement, type HTMLAttributes, type ReactElement, type ReactNode, type Ref } from 'react';
import { cn } from '@web/lib/utils';

type AnyProps = Record<string, unknown>;

function setRef<T>(ref: Ref<T> | undefined, value: T): void {
  if (typeof ref === 'function') ref(value);
  else if (ref && typeof ref === 'object') (ref as { current: T }).current = value;
}

/**
 * Renders its only child with the slot's props merged in (className joined, handlers chained,
 * child's props winning otherwise): `<Button asChild><Link to="/">…</Link></Button>`.
 * A tiny stand-in for Radix Slot, kept out of the shell bundle.
 */
export const Slot = forwardRef<HTMLElement, HTMLAttributes<HTMLElement> & { children?: ReactNode }>(({ children, ...slotProps }, ref) => {
  if (!isValidElement(children)) return null;
  const child = children as ReactElement<AnyProps> & { props: AnyProps & { ref?: Ref<HTMLElement> } };
  const childProps = child.props;
  const merged: AnyProps = { ...slotProps, ...childProps };
  for (const key of Object.keys(slotProps)) {
    const a = (slotProps as AnyProps)[key];
    const b = childProps[key];
    if (/^on[A-Z]/.test(key) && typeof a === 'function' && typeof b === 'function') {
      merged[key] = (...args: unknown[]) => {
        (b as (...x: unknown[]) => void)(...args);
        (a as (...x: unknown[]) => void)(...args);
      };
    } else if (key === 'style') {
      merged.style = { ...(a as object), ...(b as object) };
    }
  }
  merged.className = cn(slotProps.className, childProps.className as string | undefined);
  const childRef = childProps.ref;
  merged.ref = ref || childRef ? (node: HTMLElement) => { setRef(ref, node); setRef(childRef, node); } : undefined;
  return cloneElement(child, merged);
});
Slot.displayName = 'Slot';
