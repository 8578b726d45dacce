import { cloneElement, type FormHTMLAttributes, type ReactElement, type ReactNode } from 'react';
import {
  FormProvider, useController, useForm, useFormContext, useFormState,
  type DefaultValues, type FieldErrors, type FieldPath, type FieldValues, type Resolver, type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@web/lib/api';
import { Alert } from './alert';
import { Button, type ButtonProps } from './button';
import { FormField } from './form-field';

/** Where the server's (or any) error that names no shown field is kept. */
const GENERAL = 'root.server' as const;

/**
 * When a form checks its values: on submit only; editing a field clears its own error, so nothing
 * is re-validated while the person types.
 */
export const FORM_CHECKS = { mode: 'onSubmit', reValidateMode: 'onSubmit' } as const;

/**
 * A form checked as useZodForm's (./zod-form.ts) are, for a page that shows before its checks are
 * needed: `load` gives the checks (a zod schema's resolver, with the zod code) when the first one
 * runs, on submit, and again at each (it may build them from the page's latest state). Checks
 * that cannot load (a new version deployed meanwhile) are said in the form's alert.
 */
export function useLazyCheckedForm<TIn extends FieldValues, TOut extends FieldValues>(
  load: () => Promise<Resolver<TIn, unknown, TOut>>,
  defaultValues: DefaultValues<TIn>,
) {
  return useForm<TIn, unknown, TOut>({
    resolver: async (values, context, options) => {
      let check: Resolver<TIn, unknown, TOut>;
      try {
        check = await load();
      } catch {
        const errors: FieldErrors<TIn> = {};
        errors.root = { server: { type: 'load', message: 'common.errors.newVersion' } };
        return { values: {}, errors };
      }
      return check(values, context, options);
    },
    ...FORM_CHECKS,
    defaultValues,
  });
}

/**
 * Puts a failed call's errors where people look: each server field error (`ApiError.fields`,
 * paths like "destination_details.iban") on the form field of that name, or of its last part, or
 * of `aliases[path]`; the message in the form's alert when no shown field took it.
 */
export function showServerError<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'getValues' | 'setError'>,
  error: unknown,
  fallback: string,
  aliases: Record<string, string> = {},
): void {
  const values = form.getValues() as Record<string, unknown>;
  let placed = false;
  if (isApiError(error)) {
    for (const [path, message] of Object.entries(error.fields ?? {})) {
      const name = [aliases[path], path, path.split('.').pop()].find((n) => n !== undefined && n in values);
      if (name) {
        form.setError(name as FieldPath<T>, { type: 'server', message });
        placed = true;
      }
    }
  }
  if (!placed) form.setError(GENERAL, { type: 'server', message: isApiError(error) && error.message ? error.message : fallback });
}

/** An error message: an i18n key ("validation.emailRequired") in the current language, else the text as given. */
export function useErrorText(): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  return (message) => {
    if (!message) return undefined;
    const [ns, ...rest] = message.split('.');
    const key = rest.join('.');
    return key && i18n.exists(key, { ns }) ? t(key, { ns }) : message;
  };
}

type FormProps<TIn extends FieldValues, TOut> = Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & {
  form: UseFormReturn<TIn, unknown, TOut>;
  /** Runs with the checked values; a thrown error is shown by {@link showServerError}. */
  onSubmit: (values: TOut) => Promise<void> | void;
  /** The alert's text when a failure carries no message of its own. */
  fallbackError: string;
  /** Server field paths that go by another name in this form. */
  serverFieldAliases?: Record<string, string>;
  /** Called after a failure is shown (e.g. for a toast). */
  onFailure?: (error: unknown) => void;
  /** Called when the values fail the schema, with the first failing field's message. */
  onSchemaError?: (field: string, message: string | undefined) => void;
};

/** A <form> wired to its react-hook-form state: submit checks, calls `onSubmit`, shows what failed. */
export function Form<TIn extends FieldValues, TOut>({
  form, onSubmit, fallbackError, serverFieldAliases, onFailure, onSchemaError, children, ...props
}: FormProps<TIn, TOut>) {
  const submit = form.handleSubmit(
    async (values) => {
      try {
        await onSubmit(values);
      } catch (error) {
        showServerError(form, error, fallbackError, serverFieldAliases);
        onFailure?.(error);
      }
    },
    (errors) => {
      const [field, error] = Object.entries(errors)[0] ?? [];
      if (field) onSchemaError?.(field, (error as { message?: string } | undefined)?.message);
    },
  );
  return (
    <FormProvider {...form}>
      <form
        noValidate
        {...props}
        onSubmit={(event) => {
          form.clearErrors(GENERAL);
          void submit(event);
        }}
      >
        {children}
      </form>
    </FormProvider>
  );
}

/** The form's general error (role=alert), with anything to add after it (e.g. a link). */
export function FormError({ children, className, ...props }: { children?: ReactNode; className?: string; 'data-testid'?: string; id?: string }) {
  const { errors } = useFormState();
  const message = useErrorText()(errors.root?.server?.message);
  if (!message) return null;
  return (
    <Alert variant="destructive" className={className} {...props}>
      {message}
      {children ? <> {children}</> : null}
    </Alert>
  );
}

type FieldControl = Parameters<typeof FormField>[0]['children'];

/** A form value's error in the current language, for controls laid out by hand (several values in one). */
export function useFieldError(name: string): string | undefined {
  const { getFieldState } = useFormContext();
  const state = useFormState({ name });
  return useErrorText()(getFieldState(name, state).error?.message);
}

/** The value a control's change gives: an input's text, a checkbox's state, or the value itself. */
function changedValue(input: unknown): unknown {
  if (input && typeof input === 'object' && 'target' in input) {
    const target = (input as { target: HTMLInputElement }).target;
    return target.type === 'checkbox' ? target.checked : target.value;
  }
  return input;
}

/** One form value's control, wired to the form: clears its error when changed. */
function useFieldControl<T extends FieldValues>(name: FieldPath<T>, parse?: (text: string) => unknown, onValueChange?: (value: unknown) => void) {
  const { control, clearErrors } = useFormContext<T>();
  const { field, fieldState } = useController({ name, control });
  const onChange = (input: unknown) => {
    const raw = changedValue(input);
    const value = parse && typeof raw === 'string' ? parse(raw) : raw;
    field.onChange(value);
    clearErrors(name);
    onValueChange?.(value);
  };
  return { field, onChange, error: useErrorText()(fieldState.error?.message) };
}

/** What a field hands its control. */
export interface FieldControlProps {
  name: string;
  value: unknown;
  onChange: (input: unknown) => void;
  onBlur: () => void;
  ref: (element: HTMLElement | null) => void;
}

/**
 * A labelled form value: label (with the required marker), its control, a hint and its error
 * (aria-invalid, aria-describedby, role=alert). The control is an Input, Select or Textarea
 * element, or a function giving one from {@link FieldControlProps} (e.g. for the phone field).
 */
export function Field<T extends FieldValues = FieldValues>({
  name, label, hint, required, className, labelAction, parse, onValueChange, children,
}: {
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  labelAction?: ReactNode;
  /** Shapes what was typed before it is kept (e.g. digits only). */
  parse?: (text: string) => unknown;
  /** Told the new value after a change (e.g. to adjust another field). */
  onValueChange?: (value: unknown) => void;
  children: ReactElement | ((control: FieldControlProps) => ReactElement);
}) {
  const { field, onChange, error } = useFieldControl<T>(name, parse, onValueChange);
  const props: FieldControlProps = { name: field.name, value: field.value ?? '', onChange, onBlur: field.onBlur, ref: field.ref };
  const control = (typeof children === 'function' ? children(props) : cloneElement(children, props)) as FieldControl;
  return (
    <FormField label={label} hint={hint} error={error} required={required} className={className} labelAction={labelAction}>
      {control}
    </FormField>
  );
}

/** A form value shown as a checkbox with its label beside it. */
export function CheckboxField<T extends FieldValues = FieldValues>({ name, label, className }: { name: FieldPath<T>; label: ReactNode; className?: string }) {
  const { field, onChange } = useFieldControl<T>(name);
  return (
    <label className={className ?? 'flex items-center gap-2 text-sm text-slate-800'}>
      <input
        type="checkbox"
        name={field.name}
        ref={field.ref}
        checked={Boolean(field.value)}
        onChange={onChange}
        onBlur={field.onBlur}
        className="size-4 rounded border-input accent-brand-700"
      />
      {label}
    </label>
  );
}

/** The form's submit button: busy (spinner, aria-busy, disabled) while the submit runs. */
export function SubmitButton({ busyLabel, children, ...props }: Omit<ButtonProps, 'type' | 'loading'> & { busyLabel?: ReactNode }) {
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" loading={isSubmitting} {...props}>
      {isSubmitting && busyLabel ? busyLabel : children}
    </Button>
  );
}
