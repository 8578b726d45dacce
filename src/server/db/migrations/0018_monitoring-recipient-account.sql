-- Transaction monitoring (docs/rules/monitoring.md): the payments of one recipient account, by
-- time, whoever sent them. The account is written as core/monitoring/evaluate.ts accountKey writes
-- it (iban:, phone:, email: in lower case), so the initiation reads an account's recent senders
-- as one range of this index, never every transfer. Cancelled and rejected transfers are left out
-- as the rules leave them out.
CREATE INDEX "transfer_requests_recipient_account_idx" ON "transfer_requests" ((
  coalesce('iban:' || ("destination_details" ->> 'iban'), 'phone:' || ("destination_details" ->> 'recipient_phone'),
    'email:' || lower("destination_details" ->> 'recipient_email'))
), "created_at") INCLUDE ("profile_id") WHERE "status" NOT IN ('cancelled', 'rejected');
