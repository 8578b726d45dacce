-- sender_daily_totals kept by statement-level triggers on transfer_requests, like
-- transfer_status_counts (0004): one upsert per statement, grouped by sender, currency and UTC
-- day, in key order so two statements lock the rows they share in the same order. A transfer
-- counts while it is neither cancelled nor rejected; an update moves it out of (or back into) its
-- day, and a change of amount, currency or creation time moves it between rows. See
-- docs/decisions/034-sender-daily-totals.md.
CREATE FUNCTION "sender_daily_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "sender_daily_totals" AS t ("profile_id", "currency", "day", "amount", "transfers")
    SELECT "profile_id", "currency", ("created_at" AT TIME ZONE 'UTC')::date, sum("amount"), count(*)::int
    FROM new_rows WHERE "status" NOT IN ('cancelled', 'rejected')
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("profile_id", "currency", "day") DO UPDATE
      SET "amount" = t."amount" + excluded."amount", "transfers" = t."transfers" + excluded."transfers";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "sender_daily_totals" AS t ("profile_id", "currency", "day", "amount", "transfers")
    SELECT "profile_id", "currency", ("created_at" AT TIME ZONE 'UTC')::date, -sum("amount"), -count(*)::int
    FROM old_rows WHERE "status" NOT IN ('cancelled', 'rejected')
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("profile_id", "currency", "day") DO UPDATE
      SET "amount" = t."amount" + excluded."amount", "transfers" = t."transfers" + excluded."transfers";
  ELSE
    -- An update that leaves every row's contribution as it was writes nothing.
    INSERT INTO "sender_daily_totals" AS t ("profile_id", "currency", "day", "amount", "transfers")
    SELECT "profile_id", "currency", "day", sum("amount"), sum("n")::int FROM (
      SELECT "profile_id", "currency", ("created_at" AT TIME ZONE 'UTC')::date AS "day", "amount", 1 AS "n"
        FROM new_rows WHERE "status" NOT IN ('cancelled', 'rejected')
      UNION ALL
      SELECT "profile_id", "currency", ("created_at" AT TIME ZONE 'UTC')::date, -"amount", -1
        FROM old_rows WHERE "status" NOT IN ('cancelled', 'rejected')
    ) moved GROUP BY 1, 2, 3 HAVING sum("amount") <> 0 OR sum("n") <> 0 ORDER BY 1, 2, 3
    ON CONFLICT ("profile_id", "currency", "day") DO UPDATE
      SET "amount" = t."amount" + excluded."amount", "transfers" = t."transfers" + excluded."transfers";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "sender_daily_totals_insert" AFTER INSERT ON "transfer_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "sender_daily_totals_apply"();--> statement-breakpoint
CREATE TRIGGER "sender_daily_totals_update" AFTER UPDATE ON "transfer_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "sender_daily_totals_apply"();--> statement-breakpoint
CREATE TRIGGER "sender_daily_totals_delete" AFTER DELETE ON "transfer_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "sender_daily_totals_apply"();--> statement-breakpoint
CREATE FUNCTION "sender_daily_totals_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "sender_daily_totals";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "sender_daily_totals_truncate" AFTER TRUNCATE ON "transfer_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "sender_daily_totals_truncated"();--> statement-breakpoint
-- The backfill. Creating the triggers above locked transfer_requests against writes until this
-- migration commits, so no transfer is counted twice or missed.
INSERT INTO "sender_daily_totals" ("profile_id", "currency", "day", "amount", "transfers")
SELECT "profile_id", "currency", ("created_at" AT TIME ZONE 'UTC')::date, sum("amount"), count(*)::int
FROM "transfer_requests" WHERE "status" NOT IN ('cancelled', 'rejected')
GROUP BY 1, 2, 3;
