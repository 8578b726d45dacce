import { z } from 'zod';
import { isoDateTime, MessageSchema } from './common.js';

// A sender's own data (docs/rules/your-data.md): the download of everything held about them,
// and the closure of their account.

/** Rows as the database holds them, with their own columns: the export's sections are lists of these. */
const rows = z.array(z.record(z.string(), z.unknown()));

/** `GET /api/profiles/me/export`, sent as a file to keep. */
export const MyDataExportSchema = z.object({
  /** Bumped when a section changes shape, so a program reading old downloads can tell. */
  format: z.literal(1),
  exported_at: isoDateTime(),
  profile: z.record(z.string(), z.unknown()),
  /** Each with its timeline, the notes written to the sender, its proofs' details (never their bytes), its travel-rule data and its payouts through an operator (`payouts`) and the payments asked from the sender's wallet (`collections`). */
  transfers: rows,
  recipients: rows,
  /** Identity documents' details: kind, side, type, size, when, their review status and what was read of their machine-readable zone (never their bytes, which GET /api/kyc/documents/{id} serves). */
  identity_documents: rows,
  /** Identity reviews: the level asked, status, decision, the note the sender was sent, when submitted and decided (not who decided). */
  identity_reviews: rows,
  /** Google or Facebook accounts linked for signing in. */
  sign_in_providers: rows,
  /** Sign-ins: each session's start, device, address, last use and end. */
  sessions: rows,
  /** E-mails held in the outbox of a server without a mail server (a mail server keeps none here). */
  emails: rows,
  /** What the audit log records about the account and its transfers: the action and when, not who among staff. */
  audit: rows,
});
export type MyDataExport = z.infer<typeof MyDataExportSchema>;

/** The transfers that keep an account open: unfinished ones, or money still owed to the sender. */
export const CloseBlockerSchema = z.object({ id: z.uuid(), reference: z.string(), status: z.string(), payment_status: z.string() });
export type CloseBlocker = z.infer<typeof CloseBlockerSchema>;

/** `POST /api/profiles/me/close`: closed; the session that asked is over too. */
export const AccountClosedResponseSchema = MessageSchema.extend({ closed_at: isoDateTime() });
export type AccountClosedResponse = z.infer<typeof AccountClosedResponseSchema>;
