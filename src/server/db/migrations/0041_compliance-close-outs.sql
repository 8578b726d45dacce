CREATE TABLE "compliance_close_outs" (
	"transfer_request_id" uuid PRIMARY KEY NOT NULL,
	"alert_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"proposed_by" uuid,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_by" uuid,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "compliance_close_outs_second_check" CHECK ("compliance_close_outs"."confirmed_by" is null or "compliance_close_outs"."confirmed_by" <> "compliance_close_outs"."proposed_by")
);
--> statement-breakpoint
ALTER TABLE "compliance_close_outs" ADD CONSTRAINT "compliance_close_outs_transfer_request_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_request_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_close_outs" ADD CONSTRAINT "compliance_close_outs_alert_id_screening_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."screening_alerts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_close_outs" ADD CONSTRAINT "compliance_close_outs_proposed_by_profiles_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_close_outs" ADD CONSTRAINT "compliance_close_outs_confirmed_by_profiles_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;