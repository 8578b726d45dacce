-- The transfer a timeline step, a ledger entry or a bank statement's line names, and the statement
-- the line is of, checked once per insert statement instead of by a foreign key per row, as 0058
-- checks a ledger line's entry: a 50,000-line bank statement writes some 240,000 of these rows,
-- each a row event and a lookup. What the foreign keys refused stays refused, with their error
-- (foreign_key_violation): a row naming no such transfer or statement, a row moved to another
-- one, and deleting a transfer or a statement still named.
ALTER TABLE "bank_statement_entries" DROP CONSTRAINT "bank_statement_entries_statement_id_bank_statements_id_fk";--> statement-breakpoint
ALTER TABLE "bank_statement_entries" DROP CONSTRAINT "bank_statement_entries_transfer_id_transfer_requests_id_fk";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_transfer_request_id_transfer_requests_id_fk";--> statement-breakpoint
ALTER TABLE "transfer_status_history" DROP CONSTRAINT "transfer_status_history_transfer_request_id_transfer_requests_id_fk";--> statement-breakpoint
-- A timeline step's and a ledger entry's transfer, in their column of the same name.
CREATE FUNCTION "transfer_named_exists"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing uuid;
BEGIN
  SELECT n.id INTO missing FROM (SELECT DISTINCT "transfer_request_id" AS id FROM new_rows WHERE "transfer_request_id" IS NOT NULL) n
    WHERE NOT EXISTS (SELECT FROM "transfer_requests" t WHERE t."id" = n.id) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '% row of transfer % refused: no such transfer', TG_TABLE_NAME, missing USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "transfer_status_history_transfer_named" AFTER INSERT ON "transfer_status_history"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transfer_named_exists"();--> statement-breakpoint
CREATE TRIGGER "ledger_entries_transfer_named" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transfer_named_exists"();--> statement-breakpoint
CREATE FUNCTION "statement_line_named_exist"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing uuid;
BEGIN
  SELECT n.id INTO missing FROM (SELECT DISTINCT "statement_id" AS id FROM new_rows) n
    WHERE NOT EXISTS (SELECT FROM "bank_statements" s WHERE s."id" = n.id) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'bank statement line of statement % refused: no such statement', missing USING ERRCODE = 'foreign_key_violation';
  END IF;
  SELECT n.id INTO missing FROM (SELECT DISTINCT "transfer_id" AS id FROM new_rows WHERE "transfer_id" IS NOT NULL) n
    WHERE NOT EXISTS (SELECT FROM "transfer_requests" t WHERE t."id" = n.id) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'bank statement line of transfer % refused: no such transfer', missing USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "bank_statement_entries_named" AFTER INSERT ON "bank_statement_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "statement_line_named_exist"();--> statement-breakpoint
-- Nothing moves a step, an entry (append-only, 0005) or a line to another transfer or statement.
CREATE FUNCTION "named_kept"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% row % cannot name another transfer or statement', TG_TABLE_NAME, OLD."id" USING ERRCODE = 'foreign_key_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER "transfer_status_history_transfer_kept" BEFORE UPDATE OF "transfer_request_id" ON "transfer_status_history"
  FOR EACH ROW WHEN (NEW."transfer_request_id" IS DISTINCT FROM OLD."transfer_request_id") EXECUTE FUNCTION "named_kept"();--> statement-breakpoint
CREATE TRIGGER "bank_statement_entries_named_kept" BEFORE UPDATE OF "statement_id", "transfer_id" ON "bank_statement_entries"
  FOR EACH ROW WHEN (NEW."statement_id" IS DISTINCT FROM OLD."statement_id" OR NEW."transfer_id" IS DISTINCT FROM OLD."transfer_id")
  EXECUTE FUNCTION "named_kept"();--> statement-breakpoint
CREATE FUNCTION "transfers_deleted_unnamed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  named uuid;
BEGIN
  SELECT o."id" INTO named FROM old_rows o
    WHERE EXISTS (SELECT FROM "transfer_status_history" h WHERE h."transfer_request_id" = o."id")
       OR EXISTS (SELECT FROM "ledger_entries" e WHERE e."transfer_request_id" = o."id")
       OR EXISTS (SELECT FROM "bank_statement_entries" b WHERE b."transfer_id" = o."id")
    LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'transfer % cannot be deleted: its timeline, books or bank statement lines name it', named USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "transfer_requests_deleted_unnamed" AFTER DELETE ON "transfer_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "transfers_deleted_unnamed"();--> statement-breakpoint
CREATE FUNCTION "statements_deleted_unnamed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  named uuid;
BEGIN
  SELECT o."id" INTO named FROM old_rows o WHERE EXISTS (SELECT FROM "bank_statement_entries" b WHERE b."statement_id" = o."id") LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'bank statement % cannot be deleted: its lines name it', named USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "bank_statements_deleted_unnamed" AFTER DELETE ON "bank_statements"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "statements_deleted_unnamed"();
