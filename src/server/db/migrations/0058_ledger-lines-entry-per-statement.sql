-- A line's entry checked once per statement, by the lines' statement trigger (0056), instead of a
-- foreign key's check per row: a bank statement's 130,000 lines were 130,000 row events and
-- lookups, about half of their insert. Entries are never updated or deleted (0005's append-only
-- trigger), so a line's entry, there when the line is written, stays; a line naming no entry is
-- refused as the foreign key refused it (foreign_key_violation).
ALTER TABLE "ledger_lines" DROP CONSTRAINT "ledger_lines_entry_id_ledger_entries_id_fk";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ledger_note_lines"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing bigint;
BEGIN
  SELECT n."entry_id" INTO missing FROM (SELECT DISTINCT "entry_id" FROM new_rows) n
    WHERE NOT EXISTS (SELECT FROM "ledger_entries" e WHERE e."id" = n."entry_id") ORDER BY 1 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger line of entry % refused: no such entry', missing USING ERRCODE = 'foreign_key_violation';
  END IF;
  INSERT INTO "ledger_unchecked" ("xact", "entry_id")
    SELECT pg_current_xact_id(), 0 WHERE EXISTS (SELECT FROM new_rows)
    UNION ALL SELECT DISTINCT pg_current_xact_id(), "entry_id" FROM new_rows
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
