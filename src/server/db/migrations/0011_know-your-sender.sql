CREATE TABLE "kyc_limits" (
	"level" smallint PRIMARY KEY NOT NULL,
	"transfer" numeric(18, 2),
	"d30" numeric(18, 2) NOT NULL,
	"d365" numeric(18, 2) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "kyc_limits_level_check" CHECK ("kyc_limits"."level" between 1 and 3),
	CONSTRAINT "kyc_limits_amounts_check" CHECK (("kyc_limits"."transfer" is null or "kyc_limits"."transfer" > 0) and "kyc_limits"."d30" > 0 and "kyc_limits"."d365" > 0)
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "date_of_birth" date;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "kyc_level" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "travel_rule" jsonb;--> statement-breakpoint
ALTER TABLE "kyc_limits" ADD CONSTRAINT "kyc_limits_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_kyc_level_check" CHECK ("kyc_level" between 0 and 3);--> statement-breakpoint
-- The limits' defaults (docs/rules/know-your-sender.md#limits): level 2 and 3 send up to the
-- corridor's maximum in one transfer.
INSERT INTO "kyc_limits" ("level", "transfer", "d30", "d365") VALUES
  (1, 1000, 1000, 3000),
  (2, NULL, 7000, 42000),
  (3, NULL, 20000, 100000);--> statement-breakpoint
-- What a sender's limits count (docs/decisions/030-know-your-sender.md): their transfers by time,
-- with amount and currency in the index itself, cancelled and rejected ones left out, so the sum
-- over 365 days is an index-only range read of that sender's rows, never of every transfer.
CREATE INDEX "transfer_requests_profile_counted_idx" ON "transfer_requests" ("profile_id", "created_at")
  INCLUDE ("amount", "currency") WHERE "status" NOT IN ('cancelled', 'rejected');
