// What a sender's identity document may be (docs/rules/know-your-sender.md#documents): its kind,
// the side of a card, the file types by content, and the limits the server holds.

export const DOCUMENT_KINDS = ['passport', 'id_card', 'residence_permit', 'selfie', 'proof_of_address', 'source_of_funds'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_SIDES = ['front', 'back'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];

/** Cards have two sides, each sent apart; a passport is sent at its photo page, with no side. */
export const SIDED_KINDS: ReadonlySet<DocumentKind> = new Set(['id_card', 'residence_permit']);

/** What an upload may be: photos, each decoded, shrunk and stripped of its metadata on the server, and PDFs. */
export const DOCUMENT_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
/** What a stored document may be: HEIC too, taken as uploaded until HEIC was refused (sharp cannot decode it). */
export const DOCUMENT_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'] as const;
export type DocumentMimeType = (typeof DOCUMENT_MIME_TYPES)[number];

/** A selfie is a photo of the sender: a PDF is no selfie. */
export const IMAGE_ONLY_KINDS: ReadonlySet<DocumentKind> = new Set(['selfie']);

/** A document is at most 10 MB as uploaded. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Photos are stored with their longest side at most this many pixels: enough to read an MRZ. */
export const DOCUMENT_MAX_SIDE_PX = 2000;
/** Documents a sender may upload in 24 hours. */
export const MAX_DOCUMENTS_PER_DAY = 20;

/**
 * Where a document is in its review: `pending` until staff decide on the review it is part of,
 * then `accepted` or `rejected` (an erased document's bytes are gone, its metadata stays).
 */
export const DOCUMENT_STATUSES = ['pending', 'accepted', 'rejected'] as const;
