CREATE TABLE "collection_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"rail" text NOT NULL,
	"reference" text NOT NULL,
	"state" text DEFAULT 'submitting' NOT NULL,
	"reason" text,
	"operator_id" text,
	"amount" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"msisdn" text NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enquiries" integer DEFAULT 0 NOT NULL,
	"needs_attention_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "collection_attempts_reference_unique" UNIQUE("reference"),
	CONSTRAINT "collection_attempts_transfer_seq_key" UNIQUE("transfer_id","seq"),
	CONSTRAINT "collection_attempts_state_check" CHECK ("collection_attempts"."state" in ('submitting', 'pending', 'succeeded', 'failed', 'unknown', 'reversed')),
	CONSTRAINT "collection_attempts_rail_check" CHECK ("collection_attempts"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda'))
);
--> statement-breakpoint
ALTER TABLE "collection_attempts" ADD CONSTRAINT "collection_attempts_transfer_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_attempts_one_live_idx" ON "collection_attempts" USING btree ("transfer_id") WHERE "collection_attempts"."state" in ('submitting', 'pending', 'unknown', 'succeeded');