import { useTranslation } from 'react-i18next';
import { useFormContext } from 'react-hook-form';
import { z } from 'zod';
import { NoteInputSchema } from '@core/api/transfers';
import { NOTE_VISIBILITIES } from '@core/status';
import { Badge } from '@web/components/ui/badge';
import { CheckboxField, Field, Form, FormError, SubmitButton, useFieldError } from '@web/components/ui/form';
import { parseInto, useZodForm } from '@web/components/ui/zod-form';
import { Textarea } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime } from '@web/lib/format';
import { cn } from '@web/lib/utils';
import { Lock, Mail } from 'lucide-react';
import { useAddNote, type StaffNote } from './admin-api';
import { requesterName } from './admin-format';

// The transfer's thread (docs/rules/back-office.md#notes-and-action-needed): internal notes, messages to the sender (e-mailed; one may ask them
// for an action) and the sender's answers, oldest first.

/** The longest note the API takes, read from its schema. */
const MAX_NOTE = NoteInputSchema.shape.body.maxLength ?? undefined;

const noteFormSchema = z
  .object({ body: z.string(), visibility: z.enum(NOTE_VISIBILITIES), action_needed: z.boolean() })
  .transform((v, ctx) => parseInto(NoteInputSchema, {
    body: v.body, visibility: v.visibility, ...(v.visibility === 'sender' && v.action_needed ? { action_needed: true } : {}),
  }, ctx));

function VisibilityChoice() {
  const { t } = useTranslation('admin');
  const { register } = useFormContext<z.input<typeof noteFormSchema>>();
  const error = useFieldError('visibility');
  return (
    <fieldset className="flex flex-col gap-1 text-sm">
      <legend className="mb-1 font-medium text-slate-900">{t('thread.visibility')}</legend>
      {NOTE_VISIBILITIES.map((v) => (
        <label key={v} className="flex items-start gap-2">
          <input type="radio" value={v} {...register('visibility')} className="mt-0.5 size-4 accent-brand-700" />
          <span>{t(`thread.visibilities.${v}`)}</span>
        </label>
      ))}
      {error ? <p role="alert" className="text-sm text-destructive">{error}</p> : null}
    </fieldset>
  );
}

function NoteItem({ note, sender }: { note: StaffNote; sender: string }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const fromSender = note.author_role === 'owner';
  const author = fromSender ? sender : note.author ? requesterName({ ...note.author, email: null }) : t('thread.formerStaff');
  const role = t(`details.actors.${note.author_role}`, { defaultValue: note.author_role });
  return (
    // Three looks: an internal note (dashed, grey, a lock), a message to the sender (blue, an
    // envelope) and the sender's own words (green); never to be taken one for another.
    <li className={cn('flex flex-col gap-1 rounded-md border p-3 text-sm',
      fromSender ? 'border-l-4 border-green-300 bg-green-50'
        : note.visibility === 'internal' ? 'border-dashed border-slate-300 bg-slate-50' : 'border-l-4 border-blue-300 bg-blue-50')}
    data-testid="note" data-audience={fromSender ? 'from-sender' : note.visibility}>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium text-slate-900">{author}</span>
        <span className="text-muted-foreground">{role} · {formatDateTime(note.created_at, lng)}</span>
        {fromSender ? <Badge variant="green">{t('thread.fromSender')}</Badge>
          : note.visibility === 'internal' ? <Badge variant="gray" className="gap-1"><Lock aria-hidden className="size-3" />{t('thread.internal')}</Badge>
            : <Badge variant="blue" className="gap-1"><Mail aria-hidden className="size-3" />{t('thread.toSender')}</Badge>}
        {note.action_needed ? <Badge variant="red">{t('thread.actionAsked')}</Badge> : null}
      </p>
      <p className="whitespace-pre-wrap break-words text-slate-800">{note.body}</p>
    </li>
  );
}

export function ThreadSection({ transferId, notes, sender, actionNeeded, closed }: {
  transferId: string;
  notes: StaffNote[] | undefined;
  sender: string;
  actionNeeded: boolean;
  /** A closed transfer can no longer ask its sender for anything (the server refuses it). */
  closed: boolean;
}) {
  const { t } = useTranslation(['admin', 'common']);
  const { toast } = useToast();
  const add = useAddNote();
  const form = useZodForm(noteFormSchema, { body: '', visibility: 'internal', action_needed: false });
  const toSender = form.watch('visibility') === 'sender';

  return (
    <section aria-labelledby="d-thread" className="flex flex-col gap-3">
      <h3 id="d-thread" className="font-semibold">{t('thread.title')}</h3>
      {actionNeeded ? <p className="text-sm font-medium text-red-800" data-testid="action-needed">{t('thread.waitingForSender')}</p> : null}
      {notes?.length ? (
        <ol className="flex flex-col gap-2" aria-label={t('thread.list')}>
          {notes.map((note) => <NoteItem key={note.id} note={note} sender={sender} />)}
        </ol>
      ) : notes ? <p className="text-sm text-muted-foreground">{t('thread.empty')}</p> : null}

      <Form
        form={form}
        onSubmit={async (note) => {
          await add.mutateAsync({ ...note, id: transferId });
          toast({ variant: 'success', title: note.visibility === 'sender' ? t('thread.sent') : t('thread.added') });
          // Every note starts internal again: a message to the sender is chosen each time, never left on.
          form.reset({ body: '', visibility: 'internal', action_needed: false });
        }}
        fallbackError={t('states.error', { ns: 'common' })}
        className={cn('flex flex-col gap-3 rounded-md p-3', toSender ? 'bg-blue-50 ring-2 ring-blue-300' : 'border border-dashed border-slate-300 bg-slate-50')}
        aria-label={t('thread.formLabel')}
      >
        <Field name="body" label={t('thread.body')} required>
          <Textarea maxLength={MAX_NOTE} rows={3} />
        </Field>
        <VisibilityChoice />
        {toSender && !closed ? <CheckboxField name="action_needed" label={t('thread.askAction')} /> : null}
        <p className={cn('flex items-center gap-2 text-sm', toSender ? 'font-medium text-blue-900' : 'text-slate-700')} data-testid="note-audience" aria-live="polite">
          {toSender ? <Mail aria-hidden className="size-4" /> : <Lock aria-hidden className="size-4" />}
          {toSender ? t('thread.willEmail', { name: sender }) : t('thread.staffOnly')}
        </p>
        <FormError />
        {/* A new button for each audience (key), so no colour transition runs between the two looks. */}
        <SubmitButton key={toSender ? 'send' : 'add'} variant={toSender ? 'default' : 'secondary'} className="self-start">{toSender ? t('thread.send') : t('thread.add')}</SubmitButton>
      </Form>
    </section>
  );
}
