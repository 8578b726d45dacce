import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { KycReviewDocument } from '@core/api/kyc-reviews';
import { carriesMrz } from '@core/mrz';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { LoadingState } from '@web/components/ui/spinner';
import { fetchBlob } from '@web/lib/api';
import { useSession } from '@web/lib/session';
import { MrzPanel } from './mrz-panel';

// One document of an identity review (docs/rules/know-your-sender.md#reviews): its photo inline (a
// PDF as a link), whether it is the current one of its kind or superseded by a newer one, a
// warning when its number is approved on another account, and its machine-readable zone.

/** The document's bytes as an object URL, fetched with the session (each view is audited). */
function useDocumentUrl(href: string) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetchBlob(href, controller.signal)
      .then((blob) => { objectUrl = URL.createObjectURL(blob); setUrl(objectUrl); })
      .catch(() => { if (!controller.signal.aborted) setFailed(true); });
    return () => { controller.abort(); if (objectUrl) URL.revokeObjectURL(objectUrl); };
  }, [href]);
  return { url, failed };
}

/** The document's name in the catalogue: `passport`, `id_card_front`, `selfie`… */
export const documentSlot = (doc: Pick<KycReviewDocument, 'kind' | 'side'>) => (doc.side ? `${doc.kind}_${doc.side}` : doc.kind);

function ApprovedElsewhere({ accounts }: { accounts: KycReviewDocument['approved_elsewhere'] }) {
  const { t } = useTranslation('admin');
  const isAdmin = useSession().user?.role === 'admin';
  return (
    <Alert variant="warning" className="mt-2" data-testid="approved-elsewhere">
      <p>{t('verification.approvedElsewhere')}</p>
      <ul className="mt-1 list-disc pl-5">
        {accounts.map((a) => (
          <li key={a.profile_id}>
            {isAdmin
              ? <Link className="font-medium underline" to={`/admin?tab=users&q=${encodeURIComponent(a.email)}`}>{a.full_name ?? a.email}</Link>
              : <span className="font-medium">{a.full_name ?? a.email}</span>}
            {' '}<span className="break-all">({a.email})</span>
          </li>
        ))}
      </ul>
    </Alert>
  );
}

export function ReviewDocument({ doc }: { doc: KycReviewDocument }) {
  const { t } = useTranslation('admin');
  const { url, failed } = useDocumentUrl(doc.href);
  const name = t(`verification.kind.${documentSlot(doc)}`);
  return (
    <figure className={`rounded-lg border p-2 ${doc.current ? 'border-border' : 'border-dashed border-slate-400 bg-slate-50'}`}
      data-testid={`review-doc-${documentSlot(doc)}`} data-current={doc.current}>
      <figcaption className="mb-2 flex flex-wrap items-center gap-2 text-sm font-medium">
        {name}
        {doc.current ? <Badge variant="green">{t('verification.current')}</Badge> : <Badge variant="gray">{t('verification.superseded')}</Badge>}
      </figcaption>
      {failed ? <p className="text-sm text-red-800">{t('verification.docFailed')}</p> : !url ? <LoadingState /> : doc.content_type === 'application/pdf' ? (
        <a href={url} target="_blank" rel="noreferrer" className="text-sm font-medium text-brand-700 underline">{t('verification.openPdf')}</a>
      ) : doc.content_type === 'image/heic' ? (
        <a href={url} download={`${doc.kind}.heic`} className="text-sm font-medium text-brand-700 underline">{t('verification.download')}</a>
      ) : (
        <a href={url} target="_blank" rel="noreferrer"><img src={url} alt={name} className="max-h-72 w-full rounded-md object-contain" /></a>
      )}
      {doc.approved_elsewhere.length > 0 ? <ApprovedElsewhere accounts={doc.approved_elsewhere} /> : null}
      {carriesMrz(doc.kind, doc.side) && doc.current ? <MrzPanel documentId={doc.id} mrz={doc.mrz} /> : null}
    </figure>
  );
}
