import { forwardRef, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import PhoneInput, { getCountries, isValidPhoneNumber, type Country, type Labels } from 'react-phone-number-input';
import 'react-phone-number-input/style.css';
import { fieldClassName } from './ui/input';
import { cn } from '../lib/utils';

/**
 * The selected country as its two letters ("FR"), not an emoji flag: a system without an emoji
 * font draws those as empty boxes.
 */
function CountryCode({ country }: { country: string }) {
  return <span aria-hidden className="font-mono text-xs font-semibold leading-none text-slate-800" data-testid="phone-country-code">{country}</span>;
}

/** The browser's region ("fr-FR" → "FR"; a bare "fr" → its likely region, "FR"), if it names one we know. */
export function browserRegion(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]): Country | null {
  const known = new Set<string>(getCountries());
  const regionOf = (tag: string, maximize: boolean) => {
    try {
      const locale = new Intl.Locale(tag);
      return (maximize ? locale.maximize() : locale).region ?? null;
    } catch {
      return null;
    }
  };
  for (const maximize of [false, true]) {
    for (const tag of languages) {
      const region = regionOf(tag, maximize);
      if (region && known.has(region)) return region as Country;
    }
  }
  return null;
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
  /** The country to start on while nothing is typed (e.g. the one picked in the address); else the browser's region, else the United States. */
  defaultCountry?: string | undefined;
}

/** The international phone input with a country selector: the given country, else the browser's region, else the United States. */
export const PhoneField = forwardRef<HTMLInputElement, PhoneFieldProps>(function PhoneField({ value, onChange, defaultCountry, ...props }, ref) {
  const { t } = useTranslation('auth');
  const countryName = useCountryNames();
  const labels = useMemo<Labels>(() => {
    const out: Labels = { ZZ: t('phone.international'), country: t('phone.country'), phone: t('phone.number') };
    for (const c of getCountries()) out[c] = countryName(c);
    return out;
  }, [countryName, t]);
  const start = (defaultCountry && (getCountries() as string[]).includes(defaultCountry) ? defaultCountry as Country : null) ?? browserRegion() ?? 'US';
  return (
    <PhoneInput
      ref={ref as never}
      value={value || undefined}
      onChange={(v) => onChange(v ?? '')}
      // Changed while nothing is typed (a country picked in the address), the field follows it.
      defaultCountry={start}
      labels={labels}
      flagComponent={({ country }) => <CountryCode country={country} />}
      countrySelectProps={{ 'aria-label': t('phone.country'), 'data-testid': 'phone-country' }}
      autoComplete="tel"
      className={cn('flex items-center gap-2 [&_.PhoneInputCountry]:h-10 [&_.PhoneInputCountry]:rounded-md [&_.PhoneInputCountry]:border [&_.PhoneInputCountry]:border-input [&_.PhoneInputCountry]:px-2',
        // The two letters, not a flag: no flag frame around them.
        '[&_.PhoneInputCountryIcon]:flex [&_.PhoneInputCountryIcon]:h-auto [&_.PhoneInputCountryIcon]:w-6 [&_.PhoneInputCountryIcon]:items-center [&_.PhoneInputCountryIcon]:justify-center [&_.PhoneInputCountryIcon]:bg-transparent [&_.PhoneInputCountryIcon]:shadow-none')}
      numberInputProps={{ className: cn(fieldClassName, 'h-10 py-2'), 'data-testid': 'phone-input' }}
      {...props}
    />
  );
});
