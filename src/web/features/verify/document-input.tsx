import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Camera, CheckCircle2, FileText } from 'lucide-react';
import { errorText } from '@web/lib/translate';
import { uploadDocument, type DocumentSlot } from './upload-document';

// One document to send from a phone or a computer: the camera (or a file), the upload's progress,
// a preview of the photo, and whether the server took it.

export type SlotState = { state: 'empty' } | { state: 'uploading'; percent: number } | { state: 'done'; id: string } | { state: 'failed'; message: string };

/** The slot's name in the catalogue: `passport`, `id_card_front`, `selfie`… */
export const slotKey = (slot: DocumentSlot) => (slot.side ? `${slot.kind}_${slot.side}` : slot.kind);

export function DocumentInput({ slot, onChange }: { slot: DocumentSlot; onChange: (state: SlotState) => void }) {
  const { t } = useTranslation('transfer');
  const id = useId();
  const [state, setState] = useState<SlotState>({ state: 'empty' });
  const [preview, setPreview] = useState<{ url: string; pdf: boolean } | null>(null);
  const key = slotKey(slot);

  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview.url); }, [preview]);
  const set = (next: SlotState) => { setState(next); onChange(next); };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setPreview({ url: URL.createObjectURL(file), pdf: file.type === 'application/pdf' });
    set({ state: 'uploading', percent: 0 });
    try {
      const doc = await uploadDocument(slot, file, (percent) => set({ state: 'uploading', percent }));
      set({ state: 'done', id: doc.id });
    } catch (error) {
      set({ state: 'failed', message: errorText(error, t('verify.uploadFailed', { reason: '' })) });
    }
  };

  return (
    <li className="rounded-lg border border-border p-3" data-testid={`verify-slot-${key}`}>
      <label htmlFor={id} className="block text-sm font-medium">{t(`verify.slot.${key}`)}</label>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        {preview ? (
          preview.pdf
            ? <span className="flex h-20 w-28 items-center justify-center gap-1 rounded-md border border-border text-xs text-slate-700"><FileText aria-hidden className="size-4" />{t('verify.pdf')}</span>
            : <img src={preview.url} alt={t(`verify.slot.${key}`)} className="h-20 w-28 rounded-md border border-border object-cover" data-testid="verify-preview" />
        ) : null}
        <span className="relative inline-flex h-10 items-center gap-2 rounded-md border border-input bg-white px-3 text-sm font-medium shadow-sm focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-ring">
          <Camera aria-hidden className="size-4" />{state.state === 'empty' ? t('verify.choose') : t('verify.replace')}
          <input
            id={id}
            type="file"
            accept={slot.kind === 'selfie' ? 'image/*' : 'image/*,application/pdf'}
            capture={slot.kind === 'selfie' ? 'user' : 'environment'}
            className="absolute inset-0 cursor-pointer opacity-0"
            disabled={state.state === 'uploading'}
            onChange={(e) => { void choose(e.target.files?.[0]); e.target.value = ''; }}
          />
        </span>
      </div>
      {state.state === 'uploading' ? (
        <div className="mt-2" role="status">
          <progress className="h-2 w-full" max={100} value={state.percent} aria-label={t(`verify.slot.${key}`)} />
          <span className="text-sm text-slate-700">{t('verify.uploading', { percent: state.percent })}</span>
        </div>
      ) : state.state === 'done' ? (
        <p className="mt-2 flex items-center gap-1 text-sm text-green-800" role="status"><CheckCircle2 aria-hidden className="size-4" />{t('verify.uploaded')}</p>
      ) : state.state === 'failed' ? (
        <p className="mt-2 text-sm text-red-800" role="alert">{state.message}</p>
      ) : null}
    </li>
  );
}
