DROP INDEX "ledger_entries_transfer_kind_key";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "sequence" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "resolution_reason" text;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "proposed_resolution" text;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "proposed_by" uuid;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "proposed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_proposed_by_profiles_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_transfer_kind_seq_key" ON "ledger_entries" USING btree ("transfer_request_id","kind","sequence");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_sequence_check" CHECK ("ledger_entries"."sequence" = 1 or ("ledger_entries"."sequence" > 1 and "ledger_entries"."kind" in ('payout', 'payout_reversal', 'fee', 'fee_reversal')));--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_proposal_check" CHECK ("payout_attempts"."proposed_resolution" is null or ("payout_attempts"."state" = 'reversed' and "payout_attempts"."proposed_resolution" in ('retried', 'by_hand')));--> statement-breakpoint
-- A payout (or fee) is numbered again only after the one before it was reversed, and a reversal
-- only undoes a payout (or fee) of its own number: with the unique key, never two live payouts
-- (docs/rules/money-states.md#ledger).
CREATE FUNCTION "ledger_entry_in_turn"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "ledger_entries_in_turn" BEFORE INSERT ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_entry_in_turn"();
