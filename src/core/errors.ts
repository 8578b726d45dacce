import type { Lang } from './languages.js';

/**
 * Every refusal the API can answer, closed: its HTTP status and the key of its message (in
 * src/locales, both languages). An entry's name is the answer's `code`, the contract clients
 * react to; `wire` names that code instead where one code is answered with two statuses or
 * messages (a second `otp_invalid` that is a 403, a tracking link's own `not_found` text).
 * Renaming a code, or a wire code, breaks every client: add, never rename.
 */
export const ERRORS = {
  // Any route
  bad_request: { status: 400, key: 'errors.badInput' },
  /** Input a schema or a rule refused; the answer's message is its first field's (see AppError). */
  validation_failed: { status: 400, key: 'errors.badInput' },
  not_found: { status: 404, key: 'errors.notFound' },
  unauthenticated: { status: 401, key: 'errors.unauthenticated' },
  sign_in_required: { status: 401, key: 'validation.signInRequired' },
  forbidden: { status: 403, key: 'errors.forbidden' },
  rate_limited: { status: 429, key: 'errors.rateLimited' },
  file_too_large: { status: 413, key: 'errors.fileTooLarge' },
  upload_incomplete: { status: 400, key: 'errors.uploadIncomplete' },
  /** A file over its route's limit, the limit named (`max`, in MB); a proof's is file_too_large (5 MB). */
  upload_too_large: { status: 413, key: 'errors.uploadTooLarge' },
  internal_error: { status: 500, key: 'errors.generic' },

  // Accounts and sign-in
  invalid_credentials: { status: 401, key: 'auth.errors.invalidCredentials' },
  unverified: { status: 403, key: 'auth.errors.unverified' },
  email_already_registered: { status: 409, key: 'validation.emailAlreadyRegistered' },
  otp_invalid: { status: 400, key: 'validation.otpInvalid' },
  code_exhausted: { status: 400, key: 'auth.errors.codeExhausted' },
  reset_link_invalid: { status: 400, key: 'auth.errors.resetLinkInvalid' },
  ticket_required: { status: 401, key: 'validation.ticketRequired' },
  phone_invalid: { status: 400, key: 'auth.errors.phoneInvalid' },
  country_unknown: { status: 400, key: 'auth.errors.countryUnknown' },
  password_common: { status: 400, key: 'auth.errors.passwordCommon' },
  password_contains_email_name: { status: 400, key: 'auth.errors.passwordContainsEmailName' },
  last_admin: { status: 409, key: 'auth.errors.lastAdmin' },
  // Proving to be the account's owner again (auth/reauth.ts): a wrong proof is a 403.
  current_password_required: { status: 400, key: 'auth.errors.currentPasswordRequired' },
  current_password_wrong: { status: 403, key: 'auth.errors.currentPasswordWrong' },
  reauth_code_sent: { status: 403, key: 'auth.errors.reauthCodeSent' },
  reauth_otp_invalid: { status: 403, key: 'validation.otpInvalid', wire: 'otp_invalid' },
  reauth_code_exhausted: { status: 403, key: 'auth.errors.codeExhausted', wire: 'code_exhausted' },
  // Closing one's own account (docs/rules/your-data.md#closing-your-account)
  close_open_transfers: { status: 409, key: 'errors.privacy.openTransfers' },
  close_money_owed: { status: 409, key: 'errors.privacy.moneyOwed' },
  close_staff_account: { status: 409, key: 'errors.privacy.staffAccount' },
  // Two-step sign-in
  mfa_code_invalid: { status: 400, key: 'auth.errors.mfaCodeInvalid' },
  mfa_token_invalid: { status: 401, key: 'auth.errors.mfaTokenInvalid' },
  mfa_token_exhausted: { status: 401, key: 'auth.errors.mfaTokenExhausted' },
  mfa_already_on: { status: 409, key: 'auth.errors.mfaAlreadyOn' },
  mfa_setup_first: { status: 409, key: 'auth.errors.mfaSetupFirst' },
  mfa_staff_keeps_it: { status: 403, key: 'auth.errors.mfaStaffKeepsIt' },
  mfa_not_on: { status: 409, key: 'auth.errors.mfaNotOn' },
  mfa_reset_self: { status: 409, key: 'auth.errors.mfaResetSelf' },
  mfa_required: { status: 403, key: 'auth.errors.mfaRequired' },
  mfa_enrollment_required: { status: 403, key: 'auth.errors.mfaEnrollmentRequired' },

  // Lists, prices, operators, the back office's tools
  cursor_invalid: { status: 400, key: 'validation.cursorInvalid' },
  pair_unsupported: { status: 400, key: 'validation.pairUnsupported' },
  amount_invalid: { status: 400, key: 'validation.amountInvalid' },
  fee_tier_overlap: { status: 400, key: 'validation.feeTierOverlap' },
  fee_tier_gap: { status: 400, key: 'validation.feeTierGap' },
  fee_tier_direction_mixed: { status: 400, key: 'validation.feeTierDirectionMixed' },
  fee_percentage_range: { status: 400, key: 'validation.feePercentageRange' },
  fee_amount_invalid: { status: 400, key: 'validation.feeAmountInvalid' },
  fee_min_max: { status: 400, key: 'validation.feeMinMax' },
  fee_min_fee_invalid: { status: 400, key: 'validation.feeMinFeeInvalid' },
  recipient_phone_operator: { status: 400, key: 'validation.recipientPhoneOperator' },
  operator_prefix_overlap: { status: 409, key: 'admin.validation.operatorPrefixOverlap' },
  operator_last_prefix: { status: 409, key: 'admin.validation.operatorLastPrefix' },
  rail_not_configured: { status: 409, key: 'admin.validation.railNotConfigured' },
  // Payouts that need a person (docs/rules/payout-rails.md#needs-attention)
  name_hold_decided: { status: 409, key: 'admin.payouts.errors.holdDecided' },
  name_hold_proposed: { status: 409, key: 'admin.payouts.errors.holdProposed' },
  name_hold_not_proposed: { status: 409, key: 'admin.payouts.errors.holdNotProposed' },
  /** Paying anyway at or above the approval threshold: whoever proposed it cannot confirm it. */
  name_hold_same_staff: { status: 409, key: 'admin.payouts.errors.holdSameStaff' },
  /** The latest attempt may still pay (submitting, pending, unknown): no retry, no payout by hand. */
  payout_attempt_open: { status: 409, key: 'admin.payouts.errors.attemptOpen' },
  payout_attempt_failed: { status: 409, key: 'admin.payouts.errors.attemptFailed' },
  payout_reversed: { status: 409, key: 'admin.payouts.errors.reversed' },
  payout_name_held: { status: 409, key: 'admin.payouts.errors.nameHeld' },
  payout_not_failed: { status: 409, key: 'admin.payouts.errors.notFailed' },
  payout_not_open: { status: 409, key: 'admin.payouts.errors.notOpen' },
  /** Paying again applies only to the latest attempt, sent back and not yet decided. */
  payout_not_reversed: { status: 409, key: 'admin.payouts.errors.notReversed' },
  payout_repay_proposed: { status: 409, key: 'admin.payouts.errors.repayProposed' },
  payout_repay_not_proposed: { status: 409, key: 'admin.payouts.errors.repayNotProposed' },
  /** Paying again at or above the approval threshold: whoever proposed it cannot confirm it. */
  payout_repay_same_staff: { status: 409, key: 'admin.payouts.errors.repaySameStaff' },
  /** The bank sent a payout back from this IBAN: no file pays it again until the sender corrects it. */
  bank_account_returned: { status: 409, key: 'admin.payouts.errors.accountReturned' },
  /** The sender corrects a mobile recipient's name and number; a returned IBAN or PayPal address is not theirs to correct here. */
  payout_correction_unavailable: { status: 409, key: 'admin.payouts.errors.correctionUnavailable' },
  correction_not_asked: { status: 409, key: 'transfer.correction.notAsked' },
  /** "Approve on my phone" is not offered for this transfer's channel, or not for this number's operator. */
  collection_unavailable: { status: 409, key: 'transfer.collect.unavailable' },
  /** The transfer's previous request to the sender's phone is still waiting for its answer. */
  collection_in_progress: { status: 409, key: 'transfer.collect.inProgress' },
  collection_limit: { status: 409, key: 'transfer.collect.limit' },
  /** Staff asked about a collection the operator already settled. */
  collection_not_open: { status: 409, key: 'admin.payouts.errors.collectionNotOpen' },
  /** A refund recorded only for money received twice, and once. */
  collection_not_twice: { status: 409, key: 'admin.payouts.errors.collectionNotTwice' },
  collection_refunded: { status: 409, key: 'admin.payouts.errors.collectionRefunded' },
  /** No payout to a French account has every control cleared (docs/rules/bank-rail.md). */
  bank_nothing_ready: { status: 409, key: 'admin.bank.nothingReady' },
  /** The sepa_france rail is not switched on: no bank file is made. */
  bank_rail_off: { status: 409, key: 'admin.bank.railOff' },
  /** A bank file already cancelled, or some of whose payouts the bank already paid or returned. */
  bank_file_closed: { status: 409, key: 'admin.bank.fileClosed' },
  bank_statement_invalid: { status: 400, key: 'admin.bank.statementInvalid' },
  csv_invalid: { status: 400, key: 'admin.reconciliation.csvInvalid' },
  file_missing: { status: 400, key: 'admin.reconciliation.fileMissing' },
  not_parked: { status: 409, key: 'admin.jobs.notParked' },

  // Transfers: initiation, proofs, the thread, the public tracking link
  amount_below_min: { status: 400, key: 'validation.amountBelowMin' },
  amount_above_max: { status: 400, key: 'validation.amountAboveMax' },
  idempotency_mismatch: { status: 422, key: 'transfer.idempotencyMismatch' },
  proof_closed: { status: 409, key: 'transfer.proofClosed' },
  proof_limit_transfer: { status: 409, key: 'transfer.proofLimitTransfer' },
  proof_limit_daily: { status: 429, key: 'transfer.proofLimitDaily' },
  proof_type: { status: 400, key: 'transfer.proofType' },
  proof_missing: { status: 400, key: 'transfer.proofMissing' },
  action_on_closed: { status: 409, key: 'transfer.thread.actionOnClosed' },
  message_limit: { status: 409, key: 'transfer.thread.messageLimit' },
  tracking_link_not_found: { status: 404, key: 'transfer.tracking.notFound', wire: 'not_found' },
  // Status moves and four-eyes (docs/rules/back-office.md#four-eyes)
  status_update_failed: { status: 409, key: 'errors.statusUpdateFailed' },
  status_final: { status: 409, key: 'validation.statusFinal' },
  own_transfer: { status: 403, key: 'transfer.approval.ownTransfer' },
  approval_same_staff: { status: 409, key: 'transfer.approval.approvalSameStaff' },
  approval_not_needed: { status: 409, key: 'transfer.approval.approvalNotNeeded' },
  already_approved: { status: 409, key: 'transfer.approval.alreadyApproved' },
  capture_needs_approval: { status: 409, key: 'transfer.approval.captureNeedsApproval' },
  payout_needs_approval: { status: 409, key: 'transfer.approval.payoutNeedsApproval' },
  complete_needs_approval: { status: 409, key: 'transfer.approval.completeNeedsApproval' },
  // The money's states (docs/rules/money-states.md)
  payment_already_recorded: { status: 409, key: 'transfer.money.paymentAlreadyRecorded' },
  transfer_closed: { status: 409, key: 'transfer.money.transferClosed' },
  payout_already_sent: { status: 409, key: 'transfer.money.payoutAlreadySent' },
  payout_needs_payment: { status: 409, key: 'transfer.money.payoutNeedsPayment' },
  refund_already_made: { status: 409, key: 'transfer.money.refundAlreadyMade' },
  refund_not_due: { status: 409, key: 'transfer.money.refundNotDue' },
  complete_needs_both: { status: 409, key: 'transfer.money.completeNeedsBoth' },
  complete_needs_payment: { status: 409, key: 'transfer.money.completeNeedsPayment' },
  complete_needs_payout: { status: 409, key: 'transfer.money.completeNeedsPayout' },
  reject_after_payout: { status: 409, key: 'transfer.money.rejectAfterPayout' },
  payment_through_pay_pal: { status: 409, key: 'transfer.money.paymentThroughPayPal' },
  processing_needs_approval: { status: 409, key: 'transfer.money.processingNeedsApproval' },
  refund_already_requested: { status: 409, key: 'transfer.money.refundAlreadyRequested' },
  // Know your sender (docs/rules/know-your-sender.md): refused before paying
  limit_exceeded: { status: 409, key: 'errors.kyc.limitExceeded' },
  kyc_required: { status: 403, key: 'errors.kyc.kycRequired' },
  kyc_limits_order: { status: 422, key: 'admin.validation.kycLimitsOrder' },
  // Identity documents (docs/rules/know-your-sender.md#documents)
  document_missing: { status: 400, key: 'errors.kyc.document.missing' },
  document_kind: { status: 400, key: 'errors.kyc.document.kind' },
  document_side_required: { status: 400, key: 'errors.kyc.document.sideRequired' },
  document_side_not_applicable: { status: 400, key: 'errors.kyc.document.sideNotApplicable' },
  document_type: { status: 400, key: 'errors.kyc.document.type' },
  document_needs_image: { status: 400, key: 'errors.kyc.document.needsImage' },
  document_unreadable: { status: 400, key: 'errors.kyc.document.unreadable' },
  /** HEIC photos: the server's sharp cannot decode them, so it cannot check or strip them. */
  document_heic: { status: 400, key: 'errors.kyc.document.heic' },
  document_too_large: { status: 413, key: 'errors.kyc.document.tooLarge' },
  document_limit_daily: { status: 429, key: 'errors.kyc.document.limitDaily' },
  // Identity reviews (docs/rules/know-your-sender.md#reviews)
  kyc_review_documents_missing: { status: 422, key: 'errors.kyc.review.documentsMissing' },
  kyc_review_open: { status: 409, key: 'errors.kyc.review.open' },
  kyc_review_level_held: { status: 422, key: 'errors.kyc.review.levelHeld' },
  kyc_review_decided: { status: 409, key: 'errors.kyc.review.decided' },
  kyc_review_note_required: { status: 422, key: 'errors.kyc.review.noteRequired' },
  kyc_review_level_over: { status: 422, key: 'errors.kyc.review.levelOver' },
  kyc_review_resend_required: { status: 422, key: 'errors.kyc.review.resendRequired' },
  // Sanctions lists (docs/rules/screening.md#lists-in-the-product)
  list_format_invalid: { status: 400, key: 'errors.screening.listFormatInvalid' },
  list_too_large: { status: 400, key: 'errors.screening.listTooLarge' },
  list_files_invalid: { status: 400, key: 'errors.screening.listFilesInvalid' },
  list_file_too_large: { status: 413, key: 'errors.screening.listFileTooLarge' },
  // Compliance holds and screening alerts (docs/rules/screening.md#holds-and-alerts)
  compliance_hold: { status: 409, key: 'errors.screening.complianceHold' },
  alert_decided: { status: 409, key: 'errors.screening.alertDecided' },
  alert_confirmation_pending: { status: 409, key: 'errors.screening.confirmationPending' },
  second_staff_required: { status: 409, key: 'errors.screening.secondStaffRequired' },
  // A confirmed match closed out (docs/rules/screening.md#closing-out-a-confirmed-match)
  close_out_not_allowed: { status: 409, key: 'errors.screening.closeOutNotAllowed' },
  close_out_proposed: { status: 409, key: 'errors.screening.closeOutProposed' },
  close_out_not_proposed: { status: 409, key: 'errors.screening.closeOutNotProposed' },
  close_out_same_staff: { status: 409, key: 'errors.screening.closeOutSameStaff' },
  // No one decides on their own case (docs/rules/back-office.md#no-one-decides-on-their-own-case): an alert, a
  // monitoring case or an identity review about the staff member themselves or a transfer they sent.
  own_case: { status: 403, key: 'errors.ownCase' },
  // A quote is a promise (docs/rules/fees-and-rates.md#a-quote-is-a-promise)
  quote_not_found: { status: 404, key: 'errors.quotes.notFound' },
  quote_expired: { status: 409, key: 'errors.quotes.expired' },
  quote_used: { status: 409, key: 'errors.quotes.used' },
  quote_mismatch: { status: 422, key: 'errors.quotes.mismatch' },
  rate_stale: { status: 409, key: 'errors.quotes.rateStale' },
  ecb_file_invalid: { status: 400, key: 'errors.quotes.ecbFileInvalid' },
  // Transaction monitoring (docs/rules/monitoring.md#cases)
  case_closed: { status: 409, key: 'errors.monitoring.caseClosed' },
  case_transition_invalid: { status: 409, key: 'errors.monitoring.transitionInvalid' },
  case_outcome_required: { status: 400, key: 'errors.monitoring.outcomeRequired' },
  report_unavailable: { status: 409, key: 'errors.monitoring.reportUnavailable' },
  // PayPal
  paypal_not_payable: { status: 409, key: 'transfer.paypalNotPayable' },
  paypal_unavailable: { status: 502, key: 'transfer.paypalUnavailable' },
  paypal_capture_refused: { status: 409, key: 'transfer.money.paypalCaptureRefused' },
  paypal_capture_unavailable: { status: 502, key: 'transfer.money.paypalCaptureUnavailable' },
} as const satisfies Record<string, { status: number; key: string; wire?: string }>;

export type ErrorCode = keyof typeof ERRORS;
/** What clients read in an answer's `code`. */
export type WireCode = { [C in ErrorCode]: (typeof ERRORS)[C] extends { wire: infer W } ? W : C }[ErrorCode];

/** The code the API answers for `code`. */
export function wireCode(code: ErrorCode): WireCode {
  return ((ERRORS[code] as { wire?: string }).wire ?? code) as WireCode;
}

/** A message not yet translated: a key and its variables, put into the caller's language by the API's error handler. */
export class Message {
  constructor(readonly key: string, readonly vars: MessageVars = {}) {}
}

/**
 * A message's variables: text and numbers as they are, a message translated first, or what reads
 * differently in each language (an amount written the French way), given the caller's language.
 */
export type MessageVars = Record<string, string | number | Message | ((lang: Lang) => string)>;

/** A refused field's message: its key, or a Message when it has variables of its own. */
type FieldMessage = string | Message;

export interface AppErrorDetails {
  /** The refused fields (`amount`, `destination_details.recipient_phone`) and why, as message keys. */
  fields?: Record<string, FieldMessage>;
  /** The variables of the code's message; the fields' keys get them too. */
  vars?: MessageVars;
  /** More properties of the answer (Message values in it are translated too). */
  extra?: Record<string, unknown>;
}

/**
 * A refusal the API answers as `{ error, code, fields?, ...extra }` with the code's status: only a
 * listed code is accepted, and nothing in it is translated until the error handler knows the
 * caller's language. `validation_failed` answers its first field's message.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(readonly code: ErrorCode, readonly details: AppErrorDetails = {}) {
    super(code);
    this.name = 'AppError';
    this.status = ERRORS[code].status;
  }

  /** The refusal naming one field, with the code's own message there too. */
  static onField(code: ErrorCode, field: string, vars?: MessageVars): AppError {
    return new AppError(code, { fields: { [field]: ERRORS[code].key }, ...(vars ? { vars } : {}) });
  }
}
