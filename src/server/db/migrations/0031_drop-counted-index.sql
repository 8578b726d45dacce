-- Monitoring reads a sender’s transfers through transfer_requests_profile_created_idx, and the limits
-- read sender_daily_totals (docs/decisions/034-sender-daily-totals.md): this index had no reader
-- left, only its upkeep on every insert.
DROP INDEX IF EXISTS "transfer_requests_profile_counted_idx";
