CREATE TABLE "kyc_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"level" smallint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"document_ids" uuid[] NOT NULL,
	"note" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kyc_reviews_level_check" CHECK ("kyc_reviews"."level" in (2, 3)),
	CONSTRAINT "kyc_reviews_status_check" CHECK ("kyc_reviews"."status" in ('open', 'approved', 'rejected', 'more_requested'))
);
--> statement-breakpoint
ALTER TABLE "kyc_reviews" ADD CONSTRAINT "kyc_reviews_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_reviews" ADD CONSTRAINT "kyc_reviews_decided_by_profiles_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_reviews_one_open_idx" ON "kyc_reviews" USING btree ("profile_id") WHERE "kyc_reviews"."status" = 'open';--> statement-breakpoint
CREATE INDEX "kyc_reviews_status_idx" ON "kyc_reviews" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "kyc_reviews_profile_idx" ON "kyc_reviews" USING btree ("profile_id","created_at" DESC NULLS LAST);