-- A payout the bank sent back is a step of the transfer's timeline (docs/rules/bank-rail.md#statements).
ALTER TABLE "transfer_status_history" DROP CONSTRAINT "transfer_status_history_event_check";--> statement-breakpoint
ALTER TABLE "transfer_status_history" ADD CONSTRAINT "transfer_status_history_event_check" CHECK ("event" IS NULL OR "event" in ('payment_authorized', 'payment_received', 'payment_voided', 'payout_sent', 'refund_due', 'refunded', 'payout_returned'));
