CREATE TABLE "ledger_balances" (
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"debits" numeric(24, 2) DEFAULT '0' NOT NULL,
	"credits" numeric(24, 2) DEFAULT '0' NOT NULL,
	"lines" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ledger_balances_account_currency_pk" PRIMARY KEY("account","currency")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transfer_request_id" uuid,
	"kind" text NOT NULL,
	"reference" text,
	"actor_profile_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('payment', 'payout', 'fee', 'refund_due', 'refund'))
);
--> statement-breakpoint
CREATE TABLE "ledger_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	CONSTRAINT "ledger_lines_account_check" CHECK ("ledger_lines"."account" in ('paypal_usd', 'paypal_eur', 'airtel_gabon', 'mobile_rwanda', 'bank_france', 'customer_funds', 'fee_revenue', 'refunds_payable', 'fx')),
	CONSTRAINT "ledger_lines_currency_check" CHECK ("ledger_lines"."currency" in ('USD', 'EUR', 'XAF', 'RWF')),
	CONSTRAINT "ledger_lines_amount_check" CHECK ("ledger_lines"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "reconciliation_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"balance" numeric(24, 2),
	"filename" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliation_statements_account_check" CHECK ("reconciliation_statements"."account" in ('paypal_usd', 'paypal_eur', 'airtel_gabon', 'mobile_rwanda', 'bank_france'))
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_id" uuid NOT NULL,
	"account" text NOT NULL,
	"posted_on" timestamp with time zone,
	"reference" text,
	"description" text,
	"amount" numeric(20, 2) NOT NULL,
	"ledger_line_id" bigint
);
--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "provider_authorization_id" text;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "payment_amount" numeric(18, 2);--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "payment_reference" text;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "payment_flagged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "payment_recorded_by" uuid;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "payment_recorded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "payout_status" text DEFAULT 'not_sent' NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "payout_sent_by" uuid;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "payout_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "refunded_by" uuid;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_status_history" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transfer_request_id_transfer_requests_id_fk" FOREIGN KEY ("transfer_request_id") REFERENCES "public"."transfer_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_actor_profile_id_profiles_id_fk" FOREIGN KEY ("actor_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_statements" ADD CONSTRAINT "reconciliation_statements_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_statement_id_reconciliation_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."reconciliation_statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_ledger_line_id_ledger_lines_id_fk" FOREIGN KEY ("ledger_line_id") REFERENCES "public"."ledger_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_transfer_kind_key" ON "ledger_entries" USING btree ("transfer_request_id","kind");--> statement-breakpoint
CREATE INDEX "ledger_lines_entry_idx" ON "ledger_lines" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "ledger_lines_account_idx" ON "ledger_lines" USING btree ("account","currency","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reconciliation_statements_account_idx" ON "reconciliation_statements" USING btree ("account","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "statement_lines_statement_idx" ON "statement_lines" USING btree ("statement_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_lines_ledger_line_key" ON "statement_lines" USING btree ("ledger_line_id");--> statement-breakpoint
CREATE INDEX "statement_lines_account_idx" ON "statement_lines" USING btree ("account");--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD CONSTRAINT "transfer_requests_payment_recorded_by_profiles_id_fk" FOREIGN KEY ("payment_recorded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD CONSTRAINT "transfer_requests_payout_sent_by_profiles_id_fk" FOREIGN KEY ("payout_sent_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD CONSTRAINT "transfer_requests_refunded_by_profiles_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfer_requests_payment_created_idx" ON "transfer_requests" USING btree ("payment_status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD CONSTRAINT "transfer_requests_payment_status_check" CHECK ("transfer_requests"."payment_status" in ('awaiting', 'authorized', 'received', 'voided', 'refund_due', 'refunded'));--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD CONSTRAINT "transfer_requests_payout_status_check" CHECK ("transfer_requests"."payout_status" in ('not_sent', 'sent'));--> statement-breakpoint
-- The books are enforced by the database, not only the code (docs/rules/money-states.md#ledger).
-- 1. Append-only: no UPDATE or DELETE of an entry or a line, whoever asks.
CREATE FUNCTION "ledger_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "ledger_lines_append_only" BEFORE UPDATE OR DELETE ON "ledger_lines"
  FOR EACH ROW EXECUTE FUNCTION "ledger_refuse_change"();--> statement-breakpoint
-- 2. Balanced: at commit, each entry written has at least two lines and, per currency, its
-- debits equal its credits (signed lines sum to zero).
CREATE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- A line names its entry; an entry is its own.
  entry bigint := coalesce(to_jsonb(NEW) ->> 'entry_id', to_jsonb(NEW) ->> 'id')::bigint;
  bad record;
BEGIN
  IF (SELECT count(*) FROM "ledger_lines" WHERE "entry_id" = entry) < 2 THEN
    RAISE EXCEPTION 'ledger entry % has fewer than two lines', entry USING ERRCODE = 'check_violation';
  END IF;
  SELECT "currency", sum("amount") AS total INTO bad FROM "ledger_lines" WHERE "entry_id" = entry
    GROUP BY "currency" HAVING sum("amount") <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger entry % does not balance in %: debits and credits differ by %', entry, bad."currency", bad.total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_lines_balanced" AFTER INSERT ON "ledger_lines"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_check_balanced"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_entries_balanced" AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_check_balanced"();--> statement-breakpoint
-- 3. Running balances, in the transaction that writes the lines.
CREATE FUNCTION "ledger_balances_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ledger_balances" AS b ("account", "currency", "debits", "credits", "lines")
  SELECT "account", "currency",
    coalesce(sum("amount") FILTER (WHERE "amount" > 0), 0), coalesce(-sum("amount") FILTER (WHERE "amount" < 0), 0), count(*)
  FROM new_rows GROUP BY "account", "currency" ORDER BY "account", "currency"
  ON CONFLICT ("account", "currency") DO UPDATE
    SET "debits" = b."debits" + excluded."debits", "credits" = b."credits" + excluded."credits", "lines" = b."lines" + excluded."lines";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ledger_balances_insert" AFTER INSERT ON "ledger_lines"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ledger_balances_apply"();--> statement-breakpoint
CREATE FUNCTION "ledger_balances_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "ledger_balances";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ledger_balances_truncate" AFTER TRUNCATE ON "ledger_lines"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_balances_truncated"();--> statement-breakpoint
-- Timeline steps that move money rather than the status.
ALTER TABLE "transfer_status_history" ADD CONSTRAINT "transfer_status_history_event_check" CHECK ("event" IS NULL OR "event" in ('payment_authorized', 'payment_received', 'payment_voided', 'payout_sent', 'refund_due', 'refunded'));--> statement-breakpoint
-- Existing transfers: a recorded payout reference means the payout went out.
UPDATE "transfer_requests" SET "payout_status" = 'sent' WHERE "payout_reference" IS NOT NULL OR "status" = 'completed';--> statement-breakpoint
UPDATE "transfer_requests" SET "payment_amount" = "total" WHERE "payment_status" IN ('received', 'refund_due', 'refunded');--> statement-breakpoint
-- D14: the XAF corridors start at 3,000 XAF; their first tier started at 5,000, leaving a gap.
UPDATE "fee_tiers" SET "min_amount" = '3000' WHERE "direction" IN ('XAF_USD', 'XAF_EUR') AND "min_amount" = '5000';
