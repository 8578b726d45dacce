ALTER TABLE "collection_attempts" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "collection_attempts" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "collection_attempts" ADD COLUMN "refunded_by" uuid;--> statement-breakpoint
ALTER TABLE "collection_attempts" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "collection_attempts" ADD CONSTRAINT "collection_attempts_refunded_by_profiles_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Requests written before this column were sent inside their HTTP request, as they were written.
UPDATE "collection_attempts" SET "sent_at" = "created_at";