import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { MessageInputSchema, type SenderMessageJson } from '@core/api/transfers';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Textarea } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime } from '@web/lib/format';
import { sendTransferMessage, transferKeys } from '@web/lib/transfers';

/**
 * The transfer's thread with our team (docs/rules/back-office.md#notes-and-action-needed): what staff asked, the messages both ways,
 * oldest first, and a reply form. A reply clears "action needed".
 */
export function TransferThread({ transferId, messages, actionMessage, focusReply = false }: {
  transferId: string;
  /** Opened from "Reply": the question and the reply box are brought into view and the box focused. */
  focusReply?: boolean;
  messages: SenderMessageJson[];
  /** What staff asked, while the sender owes an answer. */
  actionMessage: string | null;
}) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const titleId = useId();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const form = useZodForm(MessageInputSchema, { body: '' });
  const sectionRef = useRef<HTMLElement>(null);

  // After the dialog has opened: the question at the top of the view, the reply box within it, focused.
  useEffect(() => {
    if (!focusReply) return;
    const timer = setTimeout(() => {
      const section = sectionRef.current;
      const box = section?.querySelector('textarea');
      if (!section || !box) return;
      (section.querySelector('[data-testid="action-needed"]') ?? section).scrollIntoView({ block: 'start' });
      const { bottom } = box.getBoundingClientRect();
      if (bottom > window.innerHeight) box.scrollIntoView({ block: 'end' });
      box.focus({ preventScroll: true });
    }, 50);
    return () => clearTimeout(timer);
  }, [focusReply]);

  const send = async (values: { body: string }) => {
    await sendTransferMessage(transferId, values);
    form.reset({ body: '' });
    toast({ variant: 'success', title: t('conversation.sent') });
    await queryClient.invalidateQueries({ queryKey: transferKeys.all });
  };

  return (
    <section ref={sectionRef} aria-labelledby={titleId} className="grid scroll-mt-4 gap-3" data-testid="thread">
      <h3 id={titleId} className="font-semibold">{t('conversation.title')}</h3>
      {actionMessage !== null ? (
        <Alert variant="warning" data-testid="action-needed">
          <p className="font-semibold">{t('action.title')}</p>
          <p className="mt-1 whitespace-pre-line break-words">{actionMessage}</p>
        </Alert>
      ) : null}
      {messages.length === 0 ? <p className="text-sm text-slate-700">{t('conversation.empty')}</p> : (
        <ol className="grid gap-2" aria-label={t('conversation.title')}>
          {messages.map((m) => (
            <li key={m.id} className={m.from === 'sender' ? 'ml-6 rounded-lg bg-brand-50 p-3' : 'mr-6 rounded-lg bg-slate-100 p-3'}>
              <p className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
                <span className="font-semibold">{t(m.from === 'sender' ? 'conversation.fromYou' : 'conversation.fromStaff')}</span>
                <time dateTime={m.created_at}>{formatDateTime(m.created_at, lng)}</time>
                {m.action_needed ? <Badge variant="yellow">{t('action.badge')}</Badge> : null}
              </p>
              <p className="mt-1 whitespace-pre-line break-words text-sm">{m.body}</p>
            </li>
          ))}
        </ol>
      )}
      <Form form={form} onSubmit={send} fallbackError={t('conversation.failed')} className="grid gap-3">
        <Field name="body" label={t('conversation.reply')}>
          <Textarea rows={3} maxLength={2000} data-testid="thread-reply" />
        </Field>
        <FormError />
        <SubmitButton className="justify-self-start">{t('conversation.send')}</SubmitButton>
      </Form>
    </section>
  );
}
