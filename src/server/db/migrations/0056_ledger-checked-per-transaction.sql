-- The books' balance check (0005, 0054) once per transaction instead of once per row: a
-- statement writing entries or lines notes the entries it touched, and at the commit one query
-- checks all of them (each still has two lines or more and balances per currency, a line added
-- to an older entry still has that entry checked). A 50,000-line bank statement fired 190,000
-- deferred row events at its commit, a plpgsql call each.
-- All pending migrations run in one transaction: the checks that earlier ones writing books left
-- pending are made now, while their triggers exist. Left pending, they would stop the ALTER TABLE
-- of the lines (0058): a table with pending trigger events cannot be altered.
SET CONSTRAINTS "ledger_lines_balanced", "ledger_entries_balanced" IMMEDIATE;--> statement-breakpoint
DROP TRIGGER "ledger_lines_balanced" ON "ledger_lines";--> statement-breakpoint
DROP TRIGGER "ledger_entries_balanced" ON "ledger_entries";--> statement-breakpoint
-- The entries a transaction wrote or added lines to, until its commit checks them; entry 0 (no
-- entry has it) is the transaction's row whose insert queues that check, once.
CREATE UNLOGGED TABLE "ledger_unchecked" (
	"xact" xid8 NOT NULL,
	"entry_id" bigint NOT NULL,
	CONSTRAINT "ledger_unchecked_pk" PRIMARY KEY("xact","entry_id")
);--> statement-breakpoint
CREATE FUNCTION "ledger_note_entries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ledger_unchecked" ("xact", "entry_id")
    SELECT pg_current_xact_id(), 0 WHERE EXISTS (SELECT FROM new_rows)
    UNION ALL SELECT pg_current_xact_id(), "id" FROM new_rows
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "ledger_note_lines"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ledger_unchecked" ("xact", "entry_id")
    SELECT pg_current_xact_id(), 0 WHERE EXISTS (SELECT FROM new_rows)
    UNION ALL SELECT DISTINCT pg_current_xact_id(), "entry_id" FROM new_rows
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ledger_entries_noted" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ledger_note_entries"();--> statement-breakpoint
CREATE TRIGGER "ledger_lines_noted" AFTER INSERT ON "ledger_lines"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ledger_note_lines"();--> statement-breakpoint
-- At the commit (or at SET CONSTRAINTS … IMMEDIATE): every entry the transaction noted, in one
-- query; the first wrong one, by id, is refused with 0005's words.
CREATE OR REPLACE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  WITH per_currency AS (
    SELECT u."entry_id", l."currency", count(l."entry_id") AS n, coalesce(sum(l."amount"), 0) AS total
    FROM "ledger_unchecked" u LEFT JOIN "ledger_lines" l ON l."entry_id" = u."entry_id"
    WHERE u."xact" = NEW."xact" AND u."entry_id" <> 0
    GROUP BY u."entry_id", l."currency"
  )
  SELECT "entry_id" AS entry, sum(n) AS lines,
    (array_agg("currency" ORDER BY "currency") FILTER (WHERE total <> 0))[1] AS currency,
    (array_agg(total ORDER BY "currency") FILTER (WHERE total <> 0))[1] AS total
  INTO bad
  FROM per_currency GROUP BY "entry_id" HAVING sum(n) < 2 OR bool_or(total <> 0)
  ORDER BY "entry_id" LIMIT 1;
  IF FOUND AND bad.lines < 2 THEN
    RAISE EXCEPTION 'ledger entry % has fewer than two lines', bad.entry USING ERRCODE = 'check_violation';
  END IF;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger entry % does not balance in %: debits and credits differ by %', bad.entry, bad.currency, bad.total
      USING ERRCODE = 'check_violation';
  END IF;
  DELETE FROM "ledger_unchecked" WHERE "xact" = NEW."xact";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_unchecked_balanced" AFTER INSERT ON "ledger_unchecked"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."entry_id" = 0) EXECUTE FUNCTION "ledger_check_balanced"();--> statement-breakpoint
-- Only that check empties it: an entry's check left out by a DELETE of its row would let an
-- unbalanced entry commit.
CREATE FUNCTION "ledger_unchecked_kept"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'the ledger''s checks at commit are kept by the database: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ledger_unchecked_kept" BEFORE UPDATE OR DELETE ON "ledger_unchecked"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_unchecked_kept"();
