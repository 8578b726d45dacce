ALTER TABLE "rates" DROP CONSTRAINT "rates_positive_check";--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "asked_by_payout" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rates" ADD COLUMN "reference" numeric(24, 10);--> statement-breakpoint
ALTER TABLE "rates" ADD COLUMN "source" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_positive_check" CHECK ("rates"."value" > 0 and ("rates"."reference" is null or "rates"."reference" > 0));