ALTER TABLE "screening_rescreens" ADD COLUMN "phase" text DEFAULT 'senders' NOT NULL;--> statement-breakpoint
ALTER TABLE "screening_rescreens" ADD COLUMN "after_id" uuid;--> statement-breakpoint
ALTER TABLE "screening_rescreens" ADD CONSTRAINT "screening_rescreens_phase_check" CHECK ("screening_rescreens"."phase" in ('senders', 'recipients', 'stale'));