import { useEffect, useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { toast, type ToastInput } from '@web/components/ui/toast';
import type { TransferValues } from './transfer-values';

/**
 * Shows an error toast. An error goes once the person changes what it was about: any edit closes
 * the form's alert and the error toast (field errors clear themselves, src/web/components/ui/form.tsx).
 */
export function useErrorToast(form: Pick<UseFormReturn<TransferValues>, 'watch' | 'clearErrors'>): (input: ToastInput) => void {
  const errorToast = useRef<{ dismiss: () => void } | null>(null);
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (!name) return;
      form.clearErrors('root');
      errorToast.current?.dismiss();
      errorToast.current = null;
    });
    return () => subscription.unsubscribe();
  }, [form]);
  return (input) => {
    errorToast.current = toast({ ...input, variant: 'destructive' });
  };
}
