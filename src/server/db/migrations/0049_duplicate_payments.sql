ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_sequence_check";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_sequence_check" CHECK ("ledger_entries"."sequence" = 1 or ("ledger_entries"."sequence" > 1 and "ledger_entries"."kind" in ('payout', 'payout_reversal', 'fee', 'fee_reversal', 'duplicate_payment', 'duplicate_refund')));--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('payment', 'payout', 'fee', 'refund_due', 'refund', 'payout_reversal', 'fee_reversal', 'duplicate_payment', 'duplicate_refund'));--> statement-breakpoint
-- A duplicate's refund n gives back duplicate payment n: never a refund of nothing, and (with the
-- unique key) never two refunds of one (docs/rules/money-states.md#ledger).
CREATE OR REPLACE FUNCTION "ledger_entry_in_turn"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  undone text := replace(NEW."kind", '_reversal', '');
BEGIN
  IF NEW."transfer_request_id" IS NULL THEN RETURN NEW; END IF;
  IF NEW."kind" IN ('payout', 'fee') AND NEW."sequence" > 1 AND NOT EXISTS (SELECT 1 FROM "ledger_entries"
      WHERE "transfer_request_id" = NEW."transfer_request_id" AND "kind" = NEW."kind" || '_reversal' AND "sequence" = NEW."sequence" - 1) THEN
    RAISE EXCEPTION 'ledger: % % of transfer % before % % was reversed', NEW."kind", NEW."sequence", NEW."transfer_request_id", NEW."kind", NEW."sequence" - 1
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW."kind" IN ('payout_reversal', 'fee_reversal') AND NOT EXISTS (SELECT 1 FROM "ledger_entries"
      WHERE "transfer_request_id" = NEW."transfer_request_id" AND "kind" = undone AND "sequence" = NEW."sequence") THEN
    RAISE EXCEPTION 'ledger: % % of transfer % reverses no % %', NEW."kind", NEW."sequence", NEW."transfer_request_id", undone, NEW."sequence"
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW."kind" = 'duplicate_refund' AND NOT EXISTS (SELECT 1 FROM "ledger_entries"
      WHERE "transfer_request_id" = NEW."transfer_request_id" AND "kind" = 'duplicate_payment' AND "sequence" = NEW."sequence") THEN
    RAISE EXCEPTION 'ledger: duplicate_refund % of transfer % gives back no duplicate_payment %', NEW."sequence", NEW."transfer_request_id", NEW."sequence"
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
-- Money received twice before now was never booked: its payment (and the refund staff recorded) posted, in the order it came.
CREATE TEMPORARY TABLE "twice_unbooked" AS
  SELECT a."id", a."transfer_id", t."source_provider" AS "account", a."currency", a."amount",
    coalesce(a."operator_id", a."reference") AS "reference", coalesce(a."settled_at", a."needs_attention_at") AS "at",
    a."refund_reference", a."refunded_by", a."refunded_at",
    row_number() OVER (PARTITION BY a."transfer_id" ORDER BY coalesce(a."settled_at", a."needs_attention_at"), a."seq")::integer AS "n"
  FROM "collection_attempts" a JOIN "transfer_requests" t ON t."id" = a."transfer_id"
  WHERE a."state" = 'succeeded' AND a."needs_attention_at" IS NOT NULL;--> statement-breakpoint
WITH "posted" AS (
  INSERT INTO "ledger_entries" ("transfer_request_id", "kind", "reference", "sequence", "created_at")
  SELECT "transfer_id", 'duplicate_payment', "reference", "n", "at" FROM "twice_unbooked"
  RETURNING "id", "transfer_request_id", "sequence"
)
INSERT INTO "ledger_lines" ("entry_id", "account", "currency", "amount")
SELECT p."id", l."account", w."currency", l."sign" * w."amount"
FROM "posted" p JOIN "twice_unbooked" w ON w."transfer_id" = p."transfer_request_id" AND w."n" = p."sequence"
CROSS JOIN LATERAL (VALUES (w."account", 1), ('refunds_payable', -1)) AS l("account", "sign");--> statement-breakpoint
WITH "posted" AS (
  INSERT INTO "ledger_entries" ("transfer_request_id", "kind", "reference", "actor_profile_id", "sequence", "created_at")
  SELECT "transfer_id", 'duplicate_refund', "refund_reference", "refunded_by", "n", "refunded_at" FROM "twice_unbooked" WHERE "refunded_at" IS NOT NULL
  RETURNING "id", "transfer_request_id", "sequence"
)
INSERT INTO "ledger_lines" ("entry_id", "account", "currency", "amount")
SELECT p."id", l."account", w."currency", l."sign" * w."amount"
FROM "posted" p JOIN "twice_unbooked" w ON w."transfer_id" = p."transfer_request_id" AND w."n" = p."sequence"
CROSS JOIN LATERAL (VALUES ('refunds_payable', 1), (w."account", -1)) AS l("account", "sign");--> statement-breakpoint
DROP TABLE "twice_unbooked";
