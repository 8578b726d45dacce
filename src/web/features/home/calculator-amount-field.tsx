import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';

/** One of the calculator's two amounts (what is sent, what the recipient gets), its currency beside it. */
export function CalculatorAmountField({ id, which, label, unit, value, onChange, invalid, describedBy }: {
  /** The calculator's id: the field is `${id}-${which}`, its test id `calculator-${which}`. */
  id: string;
  which: 'amount' | 'payout';
  label: string;
  unit: string;
  value: string;
  onChange: (text: string) => void;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={`${id}-${which}`}>{label}</Label>
      <div className="relative">
        <Input
          id={`${id}-${which}`}
          name={which}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="pr-12 text-lg font-semibold sm:text-lg"
          aria-invalid={invalid ? true : undefined}
          aria-describedby={describedBy}
          data-testid={`calculator-${which}`}
        />
        <span aria-hidden className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2 text-sm font-semibold text-slate-600">
          {unit}
        </span>
      </div>
    </div>
  );
}
