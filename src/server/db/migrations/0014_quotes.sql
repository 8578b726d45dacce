CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid,
	"direction" text NOT NULL,
	"source_provider" text NOT NULL,
	"destination_provider" text NOT NULL,
	"currency" text NOT NULL,
	"payout_currency" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"fee" numeric(18, 2) NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"rate" numeric(24, 10) NOT NULL,
	"payout" numeric(18, 2) NOT NULL,
	"reference_rate" numeric(24, 10) NOT NULL,
	"margin" numeric(9, 6) NOT NULL,
	"fee_tier_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "corridors" ADD COLUMN "quote_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corridors" ADD CONSTRAINT "corridors_quote_minutes_check" CHECK ("corridors"."quote_minutes" between 1 and 10080);--> statement-breakpoint
-- EUR↔XAF is a legal fixed parity: its quotes hold a day (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
UPDATE "corridors" SET "quote_minutes" = 1440 WHERE "direction" IN ('EUR_XAF', 'XAF_EUR');
