ALTER TABLE "payout_name_holds" DROP CONSTRAINT "payout_name_holds_pkey";--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_name_holds" ADD COLUMN "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_name_holds" ADD COLUMN "proposed_by" uuid;--> statement-breakpoint
ALTER TABLE "payout_name_holds" ADD COLUMN "proposed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_name_holds" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_resolved_by_profiles_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_name_holds" ADD CONSTRAINT "payout_name_holds_proposed_by_profiles_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_name_holds_open_idx" ON "payout_name_holds" USING btree ("transfer_id") WHERE "payout_name_holds"."closed_at" is null;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_resolution_check" CHECK ("payout_attempts"."resolution" is null or ("payout_attempts"."state" = 'failed' and "payout_attempts"."resolution" in ('retried', 'by_hand')));