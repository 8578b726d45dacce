CREATE TABLE "statement_line_totals" (
	"account" text PRIMARY KEY NOT NULL,
	"lines" bigint DEFAULT 0 NOT NULL,
	"matched" bigint DEFAULT 0 NOT NULL,
	"matched_total" numeric(24, 2) DEFAULT '0' NOT NULL,
	"unmatched_total" numeric(24, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_actor_profile_id_profiles_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_profile_id_profiles_id_fk" FOREIGN KEY ("actor_profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_profile_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ledger_entries_reference_idx" ON "ledger_entries" USING btree (lower(trim("reference")));--> statement-breakpoint
-- The audit log is append-only for every role, its owner included (D12); the app role also lacks
-- the rights (docs/database-roles.sql). An actor's profile can no longer be removed from under it.
CREATE FUNCTION "audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();--> statement-breakpoint
-- Statement lines counted and summed per account, matched or not, in the writing transaction.
CREATE FUNCTION "statement_line_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "statement_line_totals" AS s ("account", "lines", "matched", "matched_total", "unmatched_total")
  SELECT "account", sum(n), sum(m), sum(mt), sum(ut) FROM (
    SELECT "account", 1 AS n, (CASE WHEN "ledger_line_id" IS NULL THEN 0 ELSE 1 END) AS m,
      (CASE WHEN "ledger_line_id" IS NULL THEN 0 ELSE "amount" END) AS mt, (CASE WHEN "ledger_line_id" IS NULL THEN "amount" ELSE 0 END) AS ut
    FROM new_rows
    UNION ALL
    SELECT "account", -1, (CASE WHEN "ledger_line_id" IS NULL THEN 0 ELSE -1 END),
      (CASE WHEN "ledger_line_id" IS NULL THEN 0 ELSE -"amount" END), (CASE WHEN "ledger_line_id" IS NULL THEN -"amount" ELSE 0 END)
    FROM old_rows
  ) d GROUP BY "account" ORDER BY "account"
  ON CONFLICT ("account") DO UPDATE SET "lines" = s."lines" + excluded."lines", "matched" = s."matched" + excluded."matched",
    "matched_total" = s."matched_total" + excluded."matched_total", "unmatched_total" = s."unmatched_total" + excluded."unmatched_total";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "statement_line_totals_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "statement_line_totals" AS s ("account", "lines", "matched", "matched_total", "unmatched_total")
  SELECT "account", count(*), count("ledger_line_id"), coalesce(sum("amount") FILTER (WHERE "ledger_line_id" IS NOT NULL), 0),
    coalesce(sum("amount") FILTER (WHERE "ledger_line_id" IS NULL), 0)
  FROM new_rows GROUP BY "account" ORDER BY "account"
  ON CONFLICT ("account") DO UPDATE SET "lines" = s."lines" + excluded."lines", "matched" = s."matched" + excluded."matched",
    "matched_total" = s."matched_total" + excluded."matched_total", "unmatched_total" = s."unmatched_total" + excluded."unmatched_total";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "statement_line_totals_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "statement_line_totals" s SET "lines" = s."lines" - d.n, "matched" = s."matched" - d.m,
    "matched_total" = s."matched_total" - d.mt, "unmatched_total" = s."unmatched_total" - d.ut
  FROM (SELECT "account", count(*) AS n, count("ledger_line_id") AS m, coalesce(sum("amount") FILTER (WHERE "ledger_line_id" IS NOT NULL), 0) AS mt,
      coalesce(sum("amount") FILTER (WHERE "ledger_line_id" IS NULL), 0) AS ut FROM old_rows GROUP BY "account") d
  WHERE s."account" = d."account";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "statement_line_totals_insert" AFTER INSERT ON "statement_lines"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "statement_line_totals_insert"();--> statement-breakpoint
CREATE TRIGGER "statement_line_totals_update" AFTER UPDATE ON "statement_lines"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "statement_line_totals_apply"();--> statement-breakpoint
CREATE TRIGGER "statement_line_totals_delete" AFTER DELETE ON "statement_lines"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "statement_line_totals_delete"();--> statement-breakpoint
CREATE FUNCTION "statement_line_totals_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "statement_line_totals";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "statement_line_totals_truncate" AFTER TRUNCATE ON "statement_lines"
  FOR EACH STATEMENT EXECUTE FUNCTION "statement_line_totals_truncated"();--> statement-breakpoint
-- The backfill: the triggers above lock statement_lines against writes until this commits.
INSERT INTO "statement_line_totals" ("account", "lines", "matched", "matched_total", "unmatched_total")
SELECT "account", count(*), count("ledger_line_id"), coalesce(sum("amount") FILTER (WHERE "ledger_line_id" IS NOT NULL), 0),
  coalesce(sum("amount") FILTER (WHERE "ledger_line_id" IS NULL), 0)
FROM "statement_lines" GROUP BY "account";
