CREATE TABLE "transfer_status_counts" (
	"status" text NOT NULL,
	"shard" smallint NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "transfer_status_counts_status_shard_pk" PRIMARY KEY("status","shard")
);

--> statement-breakpoint
-- Kept by statement-level triggers: one upsert per statement and status (a bulk insert groups
-- its rows once instead of one upsert per row), in status order so two statements lock the
-- rows they share in the same order. The shard is the connection's: concurrent
-- transactions (on different connections) mostly write different rows. See
-- docs/decisions/015-fast-start-and-status-counts.md.
CREATE FUNCTION "transfer_status_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  conn_shard smallint := pg_backend_pid() % 16;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "transfer_status_counts" AS c ("status", "shard", "n")
    SELECT "status", conn_shard, count(*) FROM new_rows GROUP BY "status" ORDER BY "status"
    ON CONFLICT ("status", "shard") DO UPDATE SET "n" = c."n" + excluded."n";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "transfer_status_counts" AS c ("status", "shard", "n")
    SELECT "status", conn_shard, -count(*) FROM old_rows GROUP BY "status" ORDER BY "status"
    ON CONFLICT ("status", "shard") DO UPDATE SET "n" = c."n" + excluded."n";
  ELSE
    -- An update that changes no status (payment state, references) writes nothing.
    INSERT INTO "transfer_status_counts" AS c ("status", "shard", "n")
    SELECT "status", conn_shard, sum(d) FROM (
      SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 FROM old_rows
    ) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status"
    ON CONFLICT ("status", "shard") DO UPDATE SET "n" = c."n" + excluded."n";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "transfer_status_counts_insert" AFTER INSERT ON "transfer_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transfer_status_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "transfer_status_counts_update" AFTER UPDATE ON "transfer_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transfer_status_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "transfer_status_counts_delete" AFTER DELETE ON "transfer_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "transfer_status_counts_apply"();--> statement-breakpoint
CREATE FUNCTION "transfer_status_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "transfer_status_counts";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "transfer_status_counts_truncate" AFTER TRUNCATE ON "transfer_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "transfer_status_counts_truncated"();--> statement-breakpoint
-- The backfill. Creating the triggers above locked transfer_requests against writes until this
-- migration commits, so no transfer is counted twice or missed.
INSERT INTO "transfer_status_counts" ("status", "shard", "n")
SELECT "status", 0, count(*) FROM "transfer_requests" GROUP BY "status";
