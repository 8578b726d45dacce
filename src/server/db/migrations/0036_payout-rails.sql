CREATE TABLE "payout_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"rail" text NOT NULL,
	"reference" text NOT NULL,
	"state" text DEFAULT 'submitting' NOT NULL,
	"operator_id" text,
	"amount" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"msisdn" text NOT NULL,
	"name_check" jsonb NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enquiries" integer DEFAULT 0 NOT NULL,
	"needs_attention_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payout_attempts_reference_unique" UNIQUE("reference"),
	CONSTRAINT "payout_attempts_transfer_seq_key" UNIQUE("transfer_id","seq"),
	CONSTRAINT "payout_attempts_state_check" CHECK ("payout_attempts"."state" in ('submitting', 'pending', 'succeeded', 'failed', 'unknown', 'reversed')),
	CONSTRAINT "payout_attempts_rail_check" CHECK ("payout_attempts"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda'))
);
--> statement-breakpoint
CREATE TABLE "payout_name_holds" (
	"transfer_id" uuid PRIMARY KEY NOT NULL,
	"rail" text NOT NULL,
	"name_check" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"reason" text,
	CONSTRAINT "payout_name_holds_decision_check" CHECK ("payout_name_holds"."decision" is null or "payout_name_holds"."decision" in ('pay_anyway', 'ask_sender'))
);
--> statement-breakpoint
CREATE TABLE "payout_rails" (
	"id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"changed_by" uuid,
	"changed_at" timestamp with time zone,
	"last_ok_at" timestamp with time zone,
	"balance" numeric(18, 2),
	"balance_currency" text,
	"balance_read_at" timestamp with time zone,
	CONSTRAINT "payout_rails_id_check" CHECK ("payout_rails"."id" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda'))
);
--> statement-breakpoint
CREATE TABLE "rail_callbacks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reference" text,
	"signature_ok" boolean,
	"body" jsonb NOT NULL,
	CONSTRAINT "rail_callbacks_operator_check" CHECK ("rail_callbacks"."operator" in ('airtel', 'mtn'))
);
--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_transfer_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_name_holds" ADD CONSTRAINT "payout_name_holds_transfer_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_name_holds" ADD CONSTRAINT "payout_name_holds_decided_by_profiles_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_rails" ADD CONSTRAINT "payout_rails_changed_by_profiles_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_attempts_one_live_idx" ON "payout_attempts" USING btree ("transfer_id") WHERE "payout_attempts"."state" in ('submitting', 'pending', 'unknown', 'succeeded');--> statement-breakpoint
CREATE INDEX "payout_attempts_open_idx" ON "payout_attempts" USING btree ("rail","created_at") WHERE "payout_attempts"."state" in ('submitting', 'pending', 'unknown');--> statement-breakpoint
CREATE INDEX "rail_callbacks_reference_idx" ON "rail_callbacks" USING btree ("reference");--> statement-breakpoint
INSERT INTO "payout_rails" ("id") VALUES ('airtel_gabon'), ('airtel_rwanda'), ('mtn_rwanda');