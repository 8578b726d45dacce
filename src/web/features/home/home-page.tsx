import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Clock, Eye, Headset, Lock, ShieldCheck, Zap } from './icons';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Calculator } from './calculator';
import { FlagFrance, FlagGabon, FlagRwanda } from './flags';

const PROMISES = [
  { icon: ShieldCheck, key: 'safe' },
  { icon: Zap, key: 'fast' },
  { icon: Eye, key: 'honest' },
] as const;

const COUNTRIES = [
  { key: 'gabon', Flag: FlagGabon },
  { key: 'rwanda', Flag: FlagRwanda },
  { key: 'france', Flag: FlagFrance },
] as const;

const STEPS = ['signup', 'send', 'done'] as const;

const REASONS = [
  { key: 'fees', icon: Eye },
  { key: 'rates', icon: Clock },
  { key: 'people', icon: Headset },
  { key: 'security', icon: Lock },
] as const;

export default function HomePage() {
  return (
    <>
      <HeroSection />
      <CountriesSection />
      <StepsSection />
      <WhySection />
    </>
  );
}

/** The title, the calculator, the three promises and the two ways in. */
function HeroSection() {
  const { t } = useTranslation(['public', 'common']);
  return (
    <section aria-labelledby="hero-title" className="bg-gradient-to-b from-brand-50 via-white to-white">
      {/* On a phone the calculator comes right under the title, above the fold (as peers do);
          from lg it sits beside the title and the promises. */}
      <div className="mx-auto grid max-w-7xl items-start gap-6 px-4 py-6 sm:gap-10 sm:px-6 sm:py-16 lg:grid-cols-[1.1fr_1fr] lg:gap-x-16 lg:gap-y-0 lg:px-8 lg:py-20">
        <div className="min-w-0 lg:col-start-1 lg:row-start-1 lg:pt-2">
          <p className="hidden text-sm font-semibold uppercase tracking-wide text-brand-700 sm:block">{t('home.hero.eyebrow')}</p>
          <h1 id="hero-title" className="text-2xl font-extrabold tracking-tight text-slate-900 sm:mt-3 sm:text-5xl">
            {t('home.hero.title')}
          </h1>
        </div>
        <Calculator className="lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:mt-2" />
        <div className="min-w-0 lg:col-start-1 lg:row-start-2">
          <p className="max-w-xl text-lg text-slate-700 lg:mt-4">{t('home.hero.subtitle')}</p>
          <ul className="mt-6 grid gap-3 sm:grid-cols-3">
            {PROMISES.map(({ icon: Icon, key }) => (
              <li key={key} className="flex items-start gap-2">
                <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-700" />
                <span>
                  <span className="block font-semibold text-slate-900">{t(`home.hero.${key}.title`)}</span>
                  <span className="block text-sm text-slate-700">{t(`home.hero.${key}.text`)}</span>
                </span>
              </li>
            ))}
          </ul>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link to="/transfer">{t('home.hero.cta')}</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/fees">{t('home.hero.secondary')}</Link>
            </Button>
          </div>
          <p className="mt-6 flex items-start gap-2 rounded-lg border border-brand-100 bg-white/70 p-3 text-sm text-slate-700" data-testid="delivery-note">
            <Clock aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-700" />
            <span>{t('home.delivery')}</span>
          </p>
        </div>
      </div>
    </section>
  );
}

/** Where money goes, and how it arrives there. */
function CountriesSection() {
  const { t } = useTranslation(['public', 'common']);
  return (
    <section aria-labelledby="countries-title" className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
      <h2 id="countries-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        {t('home.countries.title')}
      </h2>
      <p className="mt-2 max-w-2xl text-slate-700">{t('home.countries.subtitle')}</p>
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {COUNTRIES.map(({ key, Flag }) => (
          <li key={key}>
            <Card className="h-full p-5" data-testid={`country-${key}`}>
              <div className="flex items-center gap-3">
                <Flag className="h-8 w-12 shrink-0 rounded-sm border border-border" />
                <h3 className="text-lg font-semibold text-slate-900">{t(`home.countries.${key}.name`)}</h3>
              </div>
              <p className="mt-3 text-sm font-medium text-brand-800">{t(`home.countries.${key}.method`)}</p>
              <p className="mt-1 text-sm text-slate-700">{t(`home.countries.${key}.text`)}</p>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Sending money in three steps. */
function StepsSection() {
  const { t } = useTranslation(['public', 'common']);
  return (
    <section aria-labelledby="steps-title" className="bg-slate-50">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <h2 id="steps-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {t('home.steps.title')}
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {STEPS.map((key, i) => (
            <li key={key} className="flex gap-4">
              <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white">
                {i + 1}
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">
                  <span className="sr-only">{t('home.steps.step', { n: i + 1 })} </span>
                  {t(`home.steps.${key}.title`)}
                </h3>
                <p className="mt-1 text-sm text-slate-700">{t(`home.steps.${key}.text`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

/** Why send with us, and the invitation to register. */
function WhySection() {
  const { t } = useTranslation(['public', 'common']);
  return (
    <section aria-labelledby="why-title" className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
      <h2 id="why-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        {t('home.why.title')}
      </h2>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {REASONS.map(({ key, icon: Icon }) => (
          <li key={key} className="rounded-xl border border-border p-5">
            <Icon aria-hidden className="size-6 text-brand-700" />
            <h3 className="mt-3 font-semibold text-slate-900">{t(`home.why.${key}.title`)}</h3>
            <p className="mt-1 text-sm text-slate-700">{t(`home.why.${key}.text`)}</p>
          </li>
        ))}
      </ul>
      <div className="mt-10 flex flex-col items-start gap-4 rounded-2xl bg-brand-800 p-6 text-white sm:flex-row sm:items-center sm:justify-between sm:p-8">
        <div>
          <p className="text-xl font-semibold">{t('home.cta.title')}</p>
          <p className="mt-1 text-brand-100">{t('home.cta.text')}</p>
        </div>
        <Button asChild size="lg" variant="outline" className="border-white text-brand-900">
          <Link to="/register">{t('home.cta.button')}</Link>
        </Button>
      </div>
    </section>
  );
}
