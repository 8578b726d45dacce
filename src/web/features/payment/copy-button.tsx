import { useTranslation } from 'react-i18next';
import { Copy } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { useToast } from '@web/components/ui/toast';

/**
 * Copies one thing the sender types into their bank or mobile-money app (the reference, the amount,
 * the account), so nothing is mistyped. `what` names it: "Copy the reference".
 */
export function CopyButton({ value, what }: { value: string; what: 'reference' | 'amount' | 'account' }) {
  const { t } = useTranslation('transfer');
  const { toast } = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ variant: 'success', title: t(`pay.copy.${what}Copied`) });
    } catch {
      toast({ variant: 'destructive', title: t('pay.copy.failed') });
    }
  };
  return (
    // An icon button named for what it copies: the value beside it reads alone (no "Copy" in it).
    <Button type="button" size="icon" variant="outline" onClick={() => void copy()} aria-label={t(`pay.copy.${what}`)} title={t(`pay.copy.${what}`)}
      data-testid={`copy-${what}`}>
      <Copy aria-hidden />
    </Button>
  );
}
