-- The books' balance check at commit (0005), cheaper per row: an entry's lines are read in one
-- query instead of two and the row is no longer turned into JSON to find its entry, and of the
-- rows of one entry checked one after the other (its lines, after the entry itself) only the
-- first reads the lines: nothing is written while the commit's checks run. A 50,000-line bank
-- statement writes 60,000 entries and 130,000 lines, each row checked at its commit.
CREATE OR REPLACE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry bigint;
  -- The entry and the statement whose end (the commit, mostly) runs this check.
  here text;
  lines integer;
  bad_currency text;
  bad_total numeric;
BEGIN
  IF TG_TABLE_NAME = 'ledger_lines' THEN
    entry := NEW."entry_id";
  ELSE
    entry := NEW."id";
  END IF;
  here := entry::text || '@' || statement_timestamp()::text;
  IF current_setting('ledger.last_checked', true) = here THEN
    RETURN NULL;
  END IF;
  SELECT sum(n)::int, (array_agg("currency") FILTER (WHERE total <> 0))[1], (array_agg(total) FILTER (WHERE total <> 0))[1]
    INTO lines, bad_currency, bad_total
    FROM (SELECT "currency", count(*) AS n, sum("amount") AS total FROM "ledger_lines" WHERE "entry_id" = entry GROUP BY "currency") per_currency;
  IF coalesce(lines, 0) < 2 THEN
    RAISE EXCEPTION 'ledger entry % has fewer than two lines', entry USING ERRCODE = 'check_violation';
  END IF;
  IF bad_currency IS NOT NULL THEN
    RAISE EXCEPTION 'ledger entry % does not balance in %: debits and credits differ by %', entry, bad_currency, bad_total
      USING ERRCODE = 'check_violation';
  END IF;
  PERFORM set_config('ledger.last_checked', here, true);
  RETURN NULL;
END $$;
