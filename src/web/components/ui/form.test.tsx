import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createFormControl, useForm, type FieldErrors, type Resolver, type UseFormReturn } from 'react-hook-form';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { ApiError } from '@web/lib/api';
import { z } from 'zod';
import { RateUpdateSchema } from '@core/schemas';
import { Field, Form, FormError, showServerError, SubmitButton, useLazyCheckedForm } from './form';
import { parseInto, zodFormResolver } from './zod-form';
import { Input } from './input';

const i18n = createInstance();
await i18n.use(initReactI18next).init({
  lng: 'en',
  ns: ['validation'],
  resources: { en: { validation: { emailRequired: 'Email is required.' } } },
});

type Values = { email: string; password: string };

function SignIn({ errors }: { errors?: FieldErrors<Values> }) {
  const form = useForm<Values>({ defaultValues: { email: '', password: '' }, ...(errors ? { errors } : {}) });
  return (
    <Form form={form} onSubmit={() => undefined} fallbackError="Failed">
      <FormError data-testid="form-error" />
      <Field name="email" label="Email" required>
        <Input type="email" />
      </Field>
      <Field name="password" label="Password">
        <Input type="password" />
      </Field>
      <SubmitButton busyLabel="Signing in…">Sign in</SubmitButton>
    </Form>
  );
}

const html = (errors?: FieldErrors<Values>) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <SignIn {...(errors ? { errors } : {})} />
    </I18nextProvider>,
  );

describe('Form and Field', () => {
  it('label the control, mark it required and leave it valid while there is no error', () => {
    const page = html();
    const email = page.match(/<input[^>]*type="email"[^>]*>/)![0];
    const id = email.match(/id="([^"]+)"/)![1];
    expect(page).toContain(`<label class="text-sm font-medium leading-none text-foreground" for="${id}">Email<span aria-hidden="true"`);
    expect(email).toContain('aria-required="true"');
    expect(email).toContain('name="email"');
    expect(email).not.toContain('aria-invalid');
    expect(page).not.toContain('role="alert"');
  });

  it('show a schema error key in the current language, announced and tied to its control', () => {
    const page = html({ email: { type: 'too_small', message: 'validation.emailRequired' } });
    const email = page.match(/<input[^>]*type="email"[^>]*>/)![0];
    const described = email.match(/aria-describedby="([^"]+)"/)![1];
    expect(email).toContain('aria-invalid="true"');
    expect(page).toContain(`<p id="${described}" role="alert" class="text-xs font-medium text-destructive">Email is required.</p>`);
    expect(page.match(/<input[^>]*type="password"[^>]*>/)![0]).not.toContain('aria-invalid');
  });

  it('show the general error once, in an alert', () => {
    const page = html({ root: { server: { type: 'server', message: 'Invalid email or password.' } } } as FieldErrors<Values>);
    expect(page).toContain('<div role="alert" class="rounded-lg border px-4 py-3 text-sm border-red-300 bg-red-50 text-red-900" data-testid="form-error">Invalid email or password.</div>');
  });
});

describe('showServerError', () => {
  const general = (f: ReturnType<typeof form>) => f.getFieldState('root.server' as 'iban').error?.message;
  const form = () => createFormControl<{ recipient_name: string; iban: string }>({ defaultValues: { recipient_name: '', iban: '' } });

  it('puts each field error on its field, by full path, last part or alias, and no alert', () => {
    const f = form();
    const error = new ApiError(400, 'Please enter the IBAN.', {
      'destination_details.iban': 'Please enter the IBAN.',
      'destination_details.account_holder': 'Please enter the account holder.',
    });
    showServerError(f, error, 'Failed', { 'destination_details.account_holder': 'recipient_name' });
    expect(f.getFieldState('iban').error?.message).toBe('Please enter the IBAN.');
    expect(f.getFieldState('recipient_name').error?.message).toBe('Please enter the account holder.');
    expect(general(f)).toBeUndefined();
  });

  it('puts an error no shown field takes in the alert, with the server message or else the fallback', () => {
    const f = form();
    showServerError(f, new ApiError(409, 'Transfer already exists.', { reference: 'Taken.' }), 'Failed');
    expect(general(f)).toBe('Transfer already exists.');
    showServerError(f, new TypeError('boom'), 'Failed');
    expect(general(f)).toBe('Failed');
  });
});

describe('parseInto', () => {
  const RateForm = z.object({ rate: z.string() }).transform((v, ctx) => parseInto(RateUpdateSchema, { key: 'USD_XAF', value: v.rate }, ctx, { value: 'rate' }));

  it('gives the shared schema\'s output for good values', () => {
    expect(RateForm.parse({ rate: '610.50' })).toEqual({ key: 'USD_XAF', value: '610.5' });
  });

  it('reports the shared schema\'s issues on the form\'s own fields', () => {
    expect(RateForm.safeParse({ rate: '0' }).error?.issues.map((i) => [i.path, i.message])).toEqual([[['rate'], 'validation.rateInvalid']]);
  });
});

describe('useLazyCheckedForm', () => {
  /** The form a page would get, with its checks from `load`. */
  function lazyForm(load: () => Promise<Resolver<{ email: string }>>) {
    let made: UseFormReturn<{ email: string }> | undefined;
    function Page() {
      made = useLazyCheckedForm(load, { email: '' });
      return null;
    }
    renderToStaticMarkup(<Page />);
    return made!;
  }

  it('loads its checks when the form is first checked, then checks with them', async () => {
    let loads = 0;
    const f = lazyForm(async () => {
      loads++;
      return zodFormResolver(z.object({ email: z.string().min(1, 'validation.emailRequired') }));
    });
    expect(loads).toBe(0);
    expect(await f.trigger()).toBe(false);
    expect(f.getFieldState('email').error?.message).toBe('validation.emailRequired');
    f.setValue('email', 'awa@example.test');
    expect(await f.trigger()).toBe(true);
    expect(loads).toBe(2);
  });

  it('says in the form\'s alert when its checks cannot load', async () => {
    const f = lazyForm(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    expect(await f.trigger()).toBe(false);
    expect(f.getFieldState('root.server' as 'email').error?.message).toBe('common.errors.newVersion');
  });
});
