CREATE TABLE "bank_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"msg_id" text NOT NULL,
	"count" integer NOT NULL,
	"control_sum" numeric(20, 2) NOT NULL,
	"xml" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_by" uuid,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	CONSTRAINT "bank_files_msg_id_unique" UNIQUE("msg_id"),
	CONSTRAINT "bank_files_cancel_check" CHECK (("bank_files"."cancelled_at" is null) = ("bank_files"."cancel_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "bank_statement_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_id" uuid NOT NULL,
	"entry_key" text NOT NULL,
	"outcome" text NOT NULL,
	"credit" boolean NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"currency" text NOT NULL,
	"booked_on" date,
	"end_to_end_id" text,
	"remittance" text,
	"return_reason" text,
	"transfer_id" uuid,
	"flagged" boolean DEFAULT false NOT NULL,
	"note" text,
	CONSTRAINT "bank_statement_entries_entry_key_unique" UNIQUE("entry_key"),
	CONSTRAINT "bank_statement_entries_outcome_check" CHECK ("bank_statement_entries"."outcome" in ('settled', 'returned', 'payment', 'unmatched'))
);
--> statement-breakpoint
CREATE TABLE "bank_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"msg_id" text NOT NULL,
	"kind" text NOT NULL,
	"filename" text,
	"imported_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_statements_msg_id_unique" UNIQUE("msg_id"),
	CONSTRAINT "bank_statements_kind_check" CHECK ("bank_statements"."kind" in ('camt.053', 'camt.054'))
);
--> statement-breakpoint
ALTER TABLE "collection_attempts" DROP CONSTRAINT "collection_attempts_rail_check";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "operator_statements" DROP CONSTRAINT "operator_statements_rail_check";--> statement-breakpoint
ALTER TABLE "payout_attempts" DROP CONSTRAINT "payout_attempts_rail_check";--> statement-breakpoint
ALTER TABLE "payout_float_waits" DROP CONSTRAINT "payout_float_waits_rail_check";--> statement-breakpoint
ALTER TABLE "payout_rails" DROP CONSTRAINT "payout_rails_id_check";--> statement-breakpoint
ALTER TABLE "payout_attempts" ALTER COLUMN "msisdn" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_attempts" ALTER COLUMN "name_check" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "iban" text;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "bank_file_id" uuid;--> statement-breakpoint
ALTER TABLE "bank_files" ADD CONSTRAINT "bank_files_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_files" ADD CONSTRAINT "bank_files_cancelled_by_profiles_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statement_entries" ADD CONSTRAINT "bank_statement_entries_statement_id_bank_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."bank_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statement_entries" ADD CONSTRAINT "bank_statement_entries_transfer_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statements" ADD CONSTRAINT "bank_statements_imported_by_profiles_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_files_created_idx" ON "bank_files" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bank_statement_entries_statement_idx" ON "bank_statement_entries" USING btree ("statement_id","id");--> statement-breakpoint
CREATE INDEX "bank_statements_imported_idx" ON "bank_statements" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_bank_file_id_bank_files_id_fk" FOREIGN KEY ("bank_file_id") REFERENCES "public"."bank_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_attempts_bank_file_idx" ON "payout_attempts" USING btree ("bank_file_id") WHERE "payout_attempts"."bank_file_id" is not null;--> statement-breakpoint
ALTER TABLE "collection_attempts" ADD CONSTRAINT "collection_attempts_rail_check" CHECK ("collection_attempts"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('payment', 'payout', 'fee', 'refund_due', 'refund', 'payout_reversal', 'fee_reversal'));--> statement-breakpoint
ALTER TABLE "operator_statements" ADD CONSTRAINT "operator_statements_rail_check" CHECK ("operator_statements"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_account_check" CHECK (case when "payout_attempts"."rail" = 'sepa_france' then "payout_attempts"."iban" is not null and "payout_attempts"."bank_file_id" is not null else "payout_attempts"."msisdn" is not null and "payout_attempts"."name_check" is not null end);--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_rail_check" CHECK ("payout_attempts"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "payout_float_waits" ADD CONSTRAINT "payout_float_waits_rail_check" CHECK ("payout_float_waits"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "payout_rails" ADD CONSTRAINT "payout_rails_id_check" CHECK ("payout_rails"."id" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'sepa_france'));--> statement-breakpoint
INSERT INTO "payout_rails" ("id") VALUES ('sepa_france');
