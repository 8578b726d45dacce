-- The books' order check (0046, 0049) called only for the entries it looks at: a payout or fee
-- numbered again, a reversal, a duplicate's refund. A first payout or fee (a bank statement's
-- 60,000 entries) no longer calls the function to return at once.
DROP TRIGGER "ledger_entries_in_turn" ON "ledger_entries";--> statement-breakpoint
CREATE TRIGGER "ledger_entries_in_turn" BEFORE INSERT ON "ledger_entries"
  FOR EACH ROW WHEN (NEW."transfer_request_id" IS NOT NULL AND ((NEW."kind" IN ('payout', 'fee') AND NEW."sequence" > 1)
    OR NEW."kind" IN ('payout_reversal', 'fee_reversal', 'duplicate_refund')))
  EXECUTE FUNCTION "ledger_entry_in_turn"();
