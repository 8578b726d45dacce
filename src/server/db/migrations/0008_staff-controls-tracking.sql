CREATE TABLE "approval_thresholds" (
	"currency" text PRIMARY KEY NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "approval_thresholds_amount_check" CHECK ("approval_thresholds"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "operator_prefixes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel" text NOT NULL,
	"operator" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "transfer_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_request_id" uuid NOT NULL,
	"author_profile_id" uuid,
	"author_role" text NOT NULL,
	"visibility" text NOT NULL,
	"action_needed" boolean DEFAULT false NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfer_notes_visibility_check" CHECK ("transfer_notes"."visibility" in ('internal', 'sender'))
);
--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "processed_by" uuid;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "processed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "approved_by" uuid;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "action_needed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "tracking_token" text DEFAULT translate(encode(substring(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea) from 1 for 18), 'base64'), '+/', '-_');--> statement-breakpoint
ALTER TABLE "approval_thresholds" ADD CONSTRAINT "approval_thresholds_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_prefixes" ADD CONSTRAINT "operator_prefixes_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_notes" ADD CONSTRAINT "transfer_notes_transfer_request_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_request_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_notes" ADD CONSTRAINT "transfer_notes_author_profile_id_profiles_id_fk" FOREIGN KEY ("author_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_prefixes_channel_prefix" ON "operator_prefixes" USING btree ("channel","prefix");--> statement-breakpoint
CREATE INDEX "transfer_notes_request_idx" ON "transfer_notes" USING btree ("transfer_request_id","created_at");--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD CONSTRAINT "transfer_requests_processed_by_profiles_id_fk" FOREIGN KEY ("processed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD CONSTRAINT "transfer_requests_approved_by_profiles_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD CONSTRAINT "transfer_requests_tracking_token_unique" UNIQUE("tracking_token");--> statement-breakpoint
-- Transfers already processing keep who processed them, from their timeline.
UPDATE "transfer_requests" t SET "processed_by" = h."actor_profile_id", "processed_at" = h."created_at"
  FROM (SELECT DISTINCT ON ("transfer_request_id") "transfer_request_id", "actor_profile_id", "created_at"
        FROM "transfer_status_history" WHERE "to_status" = 'processing' AND "event" IS NULL
        ORDER BY "transfer_request_id", "id" DESC) h
  WHERE h."transfer_request_id" = t."id";
