CREATE TABLE "operator_statement_rows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"transaction_id" text,
	"reference" text,
	"amount" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"state" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "operator_statement_rows_state_check" CHECK ("operator_statement_rows"."state" in ('succeeded', 'failed', 'pending', 'reversed'))
);
--> statement-breakpoint
CREATE TABLE "operator_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rail" text NOT NULL,
	"sha256" text NOT NULL,
	"filename" text,
	"period_from" timestamp with time zone NOT NULL,
	"period_to" timestamp with time zone NOT NULL,
	"imported_by" uuid,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_statements_rail_check" CHECK ("operator_statements"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda'))
);
--> statement-breakpoint
CREATE TABLE "payout_float_waits" (
	"transfer_id" uuid PRIMARY KEY NOT NULL,
	"rail" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_float_waits_rail_check" CHECK ("payout_float_waits"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda'))
);
--> statement-breakpoint
ALTER TABLE "payout_rails" ADD COLUMN "balance_warning" numeric(18, 2);--> statement-breakpoint
ALTER TABLE "operator_statement_rows" ADD CONSTRAINT "operator_statement_rows_statement_id_operator_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."operator_statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_statements" ADD CONSTRAINT "operator_statements_imported_by_profiles_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_float_waits" ADD CONSTRAINT "payout_float_waits_transfer_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_statement_rows_statement_idx" ON "operator_statement_rows" USING btree ("statement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_statements_file_key" ON "operator_statements" USING btree ("rail","sha256");--> statement-breakpoint
CREATE INDEX "payout_float_waits_queue_idx" ON "payout_float_waits" USING btree ("rail","since");