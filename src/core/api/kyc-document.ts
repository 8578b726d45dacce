import { z } from 'zod';
import { DOCUMENT_KINDS, DOCUMENT_MIME_TYPES, DOCUMENT_SIDES, DOCUMENT_STATUSES } from '../kyc-documents.js';
import { isoDateTime } from './common.js';

/** An identity document's metadata (never its bytes: GET /api/kyc/documents/{id} serves those). */
export const KycDocumentSchema = z.object({
  id: z.uuid(),
  kind: z.enum(DOCUMENT_KINDS),
  /** Which side of an ID card or residence permit; null for the other kinds. */
  side: z.enum(DOCUMENT_SIDES).nullable(),
  content_type: z.enum(DOCUMENT_MIME_TYPES),
  /** Bytes as stored: a large photo is smaller than uploaded. */
  size: z.number().int(),
  uploaded_at: isoDateTime(),
  status: z.enum(DOCUMENT_STATUSES),
});
