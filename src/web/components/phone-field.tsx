import { forwardRef, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import PhoneInput, { getCountries, isValidPhoneNumber, type Country, type Labels } from 'react-phone-number-input';
import 'react-phone-number-input/style.css';
import { fieldClassName } from './ui/input';
import { cn } from '../lib/utils';

/** A flag drawn from the country code's regional-indicator letters: no image from a third party. */
function flagEmoji(country: string): string {
  return country.toUpperCase().replace(/[A-Z]/g, (c) => String.fromCodePoint(0x1f1e6 + c.charCodeAt(0) - 65));
}

/** Country names in the interface language, from the browser's own data. */
export function useCountryNames(): (code: string) => string {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([lang], { type: 'region' });
    } catch {
      names = null;
    }
    return (code: string) => {
      try {
        return names?.of(code) ?? code;
      } catch {
        return code;
      }
    };
  }, [lang]);
}

export const isValidPhone = (value: string | undefined) => Boolean(value && isValidPhoneNumber(value));

export interface PhoneFieldProps {
  id?: string;
  value: string | undefined;
  onChange: (value: string) => void;
  onBlur?: () => void;
  disabled?: boolean;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  'aria-required'?: boolean;
}

/** The international phone input with a country selector, United States by default. */
export const PhoneField = forwardRef<HTMLInputElement, PhoneFieldProps>(function PhoneField({ value, onChange, ...props }, ref) {
  const { t } = useTranslation('auth');
  const countryName = useCountryNames();
  const labels = useMemo<Labels>(() => {
    const out: Labels = { ZZ: t('phone.international'), country: t('phone.country'), phone: t('phone.number') };
    for (const c of getCountries()) out[c] = countryName(c);
    return out;
  }, [countryName, t]);
  return (
    <PhoneInput
      ref={ref as never}
      value={value || undefined}
      onChange={(v) => onChange(v ?? '')}
      defaultCountry={'US' as Country}
      labels={labels}
      flagComponent={({ country }) => <span aria-hidden className="text-lg leading-none">{flagEmoji(country)}</span>}
      countrySelectProps={{ 'aria-label': t('phone.country'), 'data-testid': 'phone-country' }}
      autoComplete="tel"
      className={cn('flex items-center gap-2 [&_.PhoneInputCountry]:h-10 [&_.PhoneInputCountry]:rounded-md [&_.PhoneInputCountry]:border [&_.PhoneInputCountry]:border-input [&_.PhoneInputCountry]:px-2')}
      numberInputProps={{ className: cn(fieldClassName, 'h-10 py-2'), 'data-testid': 'phone-input' }}
      {...props}
    />
  );
});
