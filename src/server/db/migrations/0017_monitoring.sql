CREATE TABLE "monitoring_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rule" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"transfer_request_id" uuid,
	"profile_id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"held" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitoring_alerts_rule_check" CHECK ("monitoring_alerts"."rule" in ('velocity', 'structuring', 'many_senders_to_recipient', 'one_sender_to_many_recipients', 'large_first_transfer', 'round_amounts', 'dormant_account', 'shared_recipient_account'))
);
--> statement-breakpoint
CREATE TABLE "monitoring_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"notes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reviewer_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"investigating_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitoring_cases_status_check" CHECK ("monitoring_cases"."status" in ('open', 'investigating', 'closed')),
	CONSTRAINT "monitoring_cases_outcome_check" CHECK ("monitoring_cases"."outcome" is null or "monitoring_cases"."outcome" in ('false_positive', 'risk_accepted', 'reported')),
	CONSTRAINT "monitoring_cases_closed_check" CHECK (("monitoring_cases"."status" = 'closed') = ("monitoring_cases"."outcome" is not null and "monitoring_cases"."closed_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "monitoring_rules" (
	"rule" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"holds" boolean NOT NULL,
	"thresholds" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "monitoring_rules_rule_check" CHECK ("monitoring_rules"."rule" in ('velocity', 'structuring', 'many_senders_to_recipient', 'one_sender_to_many_recipients', 'large_first_transfer', 'round_amounts', 'dormant_account', 'shared_recipient_account'))
);
--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_transfer_request_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_request_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_case_id_monitoring_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."monitoring_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_cases" ADD CONSTRAINT "monitoring_cases_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_cases" ADD CONSTRAINT "monitoring_cases_reviewer_id_profiles_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_rules" ADD CONSTRAINT "monitoring_rules_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_alerts_rule_transfer_idx" ON "monitoring_alerts" USING btree ("rule","transfer_request_id");--> statement-breakpoint
CREATE INDEX "monitoring_alerts_case_idx" ON "monitoring_alerts" USING btree ("case_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_cases_one_open_idx" ON "monitoring_cases" USING btree ("profile_id") WHERE "monitoring_cases"."status" <> 'closed';--> statement-breakpoint
CREATE INDEX "monitoring_cases_status_idx" ON "monitoring_cases" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "monitoring_cases_profile_idx" ON "monitoring_cases" USING btree ("profile_id","created_at" DESC NULLS LAST);