import { useTranslation } from 'react-i18next';
import { CheckCircle2 } from 'lucide-react';
import type { KycDocument } from '@core/api/kyc';

// The documents staff accepted, kept for the next submission: the sender does not send them again.

export function KeptDocuments({ documents }: { documents: readonly KycDocument[] }) {
  const { t } = useTranslation('transfer');
  if (documents.length === 0) return null;
  return (
    <section className="mb-4" data-testid="verify-kept">
      <h2 className="text-sm font-medium">{t('verify.kept')}</h2>
      <ul className="mt-1 flex flex-col gap-1">
        {documents.map((d) => (
          <li key={d.id} className="flex items-center gap-2 text-sm text-green-800">
            <CheckCircle2 aria-hidden className="size-4" />{t(`verify.slot.${d.side ? `${d.kind}_${d.side}` : d.kind}`)}
          </li>
        ))}
      </ul>
    </section>
  );
}
