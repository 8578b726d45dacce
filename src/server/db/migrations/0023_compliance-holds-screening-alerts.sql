CREATE TABLE "compliance_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_request_id" uuid,
	"profile_id" uuid,
	"reason" text NOT NULL,
	"source_id" uuid,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone,
	"released_by" uuid,
	"release_note" text,
	CONSTRAINT "compliance_holds_reason_check" CHECK ("compliance_holds"."reason" in ('screening', 'monitoring', 'stale_lists')),
	CONSTRAINT "compliance_holds_target_check" CHECK ("compliance_holds"."transfer_request_id" is not null or "compliance_holds"."profile_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "screening_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"subject_key" text NOT NULL,
	"trigger" text NOT NULL,
	"profile_id" uuid NOT NULL,
	"transfer_request_id" uuid,
	"saved_recipient_id" uuid,
	"screened" jsonb NOT NULL,
	"source" text NOT NULL,
	"list_id" text NOT NULL,
	"entry_id" bigint NOT NULL,
	"fingerprint" text NOT NULL,
	"score" numeric(5, 4) NOT NULL,
	"explanation" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"second_by" uuid,
	"second_at" timestamp with time zone,
	"notes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "screening_alerts_subject_check" CHECK ("screening_alerts"."subject" in ('sender', 'recipient')),
	CONSTRAINT "screening_alerts_status_check" CHECK ("screening_alerts"."status" in ('open', 'false_positive', 'confirmed')),
	CONSTRAINT "screening_alerts_trigger_check" CHECK ("screening_alerts"."trigger" in ('initiation', 'profile', 'rescreen'))
);
--> statement-breakpoint
CREATE TABLE "screening_rescreens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version_ids" jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"alerts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "compliance_holds" ADD CONSTRAINT "compliance_holds_transfer_request_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_request_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_holds" ADD CONSTRAINT "compliance_holds_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_holds" ADD CONSTRAINT "compliance_holds_released_by_profiles_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_alerts" ADD CONSTRAINT "screening_alerts_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_alerts" ADD CONSTRAINT "screening_alerts_transfer_request_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_request_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_alerts" ADD CONSTRAINT "screening_alerts_decided_by_profiles_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_alerts" ADD CONSTRAINT "screening_alerts_second_by_profiles_id_fk" FOREIGN KEY ("second_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "compliance_holds_transfer_active_idx" ON "compliance_holds" USING btree ("transfer_request_id") WHERE "compliance_holds"."released_at" is null;--> statement-breakpoint
CREATE INDEX "compliance_holds_profile_active_idx" ON "compliance_holds" USING btree ("profile_id") WHERE "compliance_holds"."released_at" is null and "compliance_holds"."transfer_request_id" is null;--> statement-breakpoint
CREATE INDEX "compliance_holds_source_idx" ON "compliance_holds" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "compliance_holds_active_idx" ON "compliance_holds" USING btree ("created_at") WHERE "compliance_holds"."released_at" is null;--> statement-breakpoint
CREATE INDEX "screening_alerts_status_idx" ON "screening_alerts" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "screening_alerts_subject_idx" ON "screening_alerts" USING btree ("subject_key","fingerprint");--> statement-breakpoint
CREATE INDEX "screening_alerts_transfer_idx" ON "screening_alerts" USING btree ("transfer_request_id");--> statement-breakpoint
CREATE INDEX "screening_rescreens_started_idx" ON "screening_rescreens" USING btree ("created_at" DESC NULLS LAST);