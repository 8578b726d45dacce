import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MrzResult } from '@core/mrz';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { ApiError } from '@web/lib/api';
import { readTypedMrz } from './verification-api';

// The reviewer types a document's machine-readable zone when the photo could not be read reliably
// (POST /api/kyc/documents/{id}/mrz, checked as a reading is, audited).

export function TypeZoneForm({ documentId, onTyped }: { documentId: string; onTyped: (r: MrzResult) => void }) {
  const { t } = useTranslation(['admin', 'common']);
  const [text, setText] = useState('');
  const type = useMutation({
    mutationFn: (lines: string[]) => readTypedMrz(documentId, lines),
    onSuccess: (r) => { setText(''); onTyped(r); },
  });
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const fieldId = `mrz-lines-${documentId}`;
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(e) => { e.preventDefault(); type.mutate(lines); }}
      aria-label={t('mrz.typeTitle')}
    >
      <label htmlFor={fieldId} className="text-sm font-medium text-slate-900">{t('mrz.typeTitle')}</label>
      <p className="text-xs text-muted-foreground">{t('mrz.typeHint')}</p>
      <textarea
        id={fieldId}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={3}
        spellCheck={false}
        autoCapitalize="characters"
        autoComplete="off"
        className="w-full rounded-md border border-input bg-white px-3 py-2 font-mono text-xs uppercase leading-relaxed"
      />
      {type.error && (
        <Alert variant="destructive">{type.error instanceof ApiError && type.error.status === 400 ? t('mrz.typeInvalid') : type.error.message}</Alert>
      )}
      <Button type="submit" size="sm" className="self-start" disabled={lines.length < 2 || type.isPending}>{t('mrz.typeSubmit')}</Button>
    </form>
  );
}
