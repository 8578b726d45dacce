import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Camera, CheckCircle2, FileText, FolderOpen } from 'lucide-react';
import { errorText } from '@web/lib/translate';
import { uploadDocument, type DocumentSlot } from './upload-document';

// One document to send from a phone or a computer: "Take a photo" opens the camera, "Choose a
// file" the files (photos, and PDFs but for a selfie), the upload's progress, a preview of the
// photo, and whether the server took it.

export type SlotState = { state: 'empty' } | { state: 'uploading'; percent: number } | { state: 'done'; id: string } | { state: 'failed'; message: string };

/** The slot's name in the catalogue: `passport`, `id_card_front`, `selfie`… */
export const slotKey = (slot: DocumentSlot) => (slot.side ? `${slot.kind}_${slot.side}` : slot.kind);

const BUTTON = 'relative inline-flex h-10 items-center gap-2 rounded-md border border-input bg-white px-3 text-sm font-medium shadow-sm focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-ring';

/** A button that is a file input: with `capture`, the phone's camera; without, its files. */
function PickButton({ label, icon, accept, capture, disabled, onFile, testId }: {
  label: string; icon: React.ReactNode; accept: string; capture?: 'user' | 'environment'; disabled: boolean; onFile: (f: File | undefined) => void; testId: string;
}) {
  return (
    <label className={BUTTON}>
      {icon}{label}
      <input type="file" accept={accept} capture={capture} className="absolute inset-0 cursor-pointer opacity-0" disabled={disabled} data-testid={testId}
        onChange={(e) => { onFile(e.target.files?.[0]); e.target.value = ''; }} />
    </label>
  );
}

export function DocumentInput({ slot, onChange }: { slot: DocumentSlot; onChange: (state: SlotState) => void }) {
  const { t } = useTranslation('transfer');
  const id = useId();
  const [state, setState] = useState<SlotState>({ state: 'empty' });
  const [preview, setPreview] = useState<{ url: string; pdf: boolean } | null>(null);
  const key = slotKey(slot);
  const selfie = slot.kind === 'selfie';

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
  const busy = state.state === 'uploading';

  return (
    <li className="rounded-lg border border-border p-3" data-testid={`verify-slot-${key}`} role="group" aria-labelledby={id}>
      <p id={id} className="text-sm font-medium">{t(`verify.slot.${key}`)}</p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        {preview ? (
          preview.pdf
            ? <span className="flex h-20 w-28 items-center justify-center gap-1 rounded-md border border-border text-xs text-slate-700"><FileText aria-hidden className="size-4" />{t('verify.pdf')}</span>
            : <img src={preview.url} alt={t(`verify.slot.${key}`)} className="h-20 w-28 rounded-md border border-border object-cover" data-testid="verify-preview" />
        ) : null}
        <PickButton label={t('verify.takePhoto')} icon={<Camera aria-hidden className="size-4" />} accept="image/*" capture={selfie ? 'user' : 'environment'}
          disabled={busy} onFile={(f) => void choose(f)} testId={`verify-camera-${key}`} />
        <PickButton label={t('verify.chooseFile')} icon={<FolderOpen aria-hidden className="size-4" />} accept={selfie ? 'image/*' : 'image/*,application/pdf'}
          disabled={busy} onFile={(f) => void choose(f)} testId={`verify-file-${key}`} />
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
