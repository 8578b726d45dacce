ALTER TABLE "ledger_balances" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_balances" DROP CONSTRAINT "ledger_balances_account_currency_pk";--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_account_currency_shard_pk" PRIMARY KEY("account","currency","shard");--> statement-breakpoint
-- The running balances written to the writing connection's shard, as transfer_status_counts
-- (0004): concurrent transactions, on different connections, mostly write different rows, where
-- one row per account queued every payout's transaction behind the one holding it until its commit.
CREATE OR REPLACE FUNCTION "ledger_balances_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  conn_shard smallint := pg_backend_pid() % 16;
BEGIN
  INSERT INTO "ledger_balances" AS b ("account", "currency", "shard", "debits", "credits", "lines")
  SELECT "account", "currency", conn_shard,
    coalesce(sum("amount") FILTER (WHERE "amount" > 0), 0), coalesce(-sum("amount") FILTER (WHERE "amount" < 0), 0), count(*)
  FROM new_rows GROUP BY "account", "currency" ORDER BY "account", "currency"
  ON CONFLICT ("account", "currency", "shard") DO UPDATE
    SET "debits" = b."debits" + excluded."debits", "credits" = b."credits" + excluded."credits", "lines" = b."lines" + excluded."lines";
  RETURN NULL;
END $$;
