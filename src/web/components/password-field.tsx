import { forwardRef, useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Eye, EyeOff } from 'lucide-react';
import { passwordScore, passwordStrength } from '@core/password';
import { Input } from './ui/input';
import { cn } from '../lib/utils';

/** A password input with a show/hide toggle. */
export const PasswordInput = forwardRef<HTMLInputElement, Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>>(
  ({ className, ...props }, ref) => {
    const { t } = useTranslation('auth');
    const [shown, setShown] = useState(false);
    return (
      <div className="relative">
        <Input ref={ref} type={shown ? 'text' : 'password'} className={cn('pr-11', className)} {...props} />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-pressed={shown}
          aria-label={shown ? t('password.hide') : t('password.show')}
          title={shown ? t('password.hide') : t('password.show')}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-slate-600 hover:text-slate-900"
        >
          {shown ? <EyeOff aria-hidden className="size-4" /> : <Eye aria-hidden className="size-4" />}
        </button>
      </div>
    );
  },
);
PasswordInput.displayName = 'PasswordInput';

const COLORS = { weak: 'bg-red-600', fair: 'bg-yellow-500', strong: 'bg-green-600' } as const;
const TEXT = { weak: 'text-red-700', fair: 'text-yellow-800', strong: 'text-green-700' } as const;

/**
 * The 0-5 strength meter: Weak below 2 (red), Fair 2-3 (yellow), Strong 4+ (green)
 * (docs/rules/accounts.md#passwords).
 */
export function PasswordStrength({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation('auth');
  if (!password) return null;
  const score = passwordScore(password);
  const strength = passwordStrength(score);
  return (
    <div id={id} className="flex items-center gap-3" data-testid="password-strength" data-score={score} data-strength={strength}>
      <div className="flex flex-1 gap-1" aria-hidden>
        {[1, 2, 3, 4, 5].map((i) => (
          <span key={i} className={cn('h-1.5 flex-1 rounded-full', i <= score ? COLORS[strength] : 'bg-slate-200')} />
        ))}
      </div>
      <span className={cn('text-xs font-medium', TEXT[strength])} aria-live="polite">
        {t('password.strength', { level: t(`password.${strength}`), score })}
      </span>
    </div>
  );
}
