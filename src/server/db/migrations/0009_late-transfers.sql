-- When a transfer is due, in SQL, so the back office can filter late transfers in the database:
-- the same rule as core deliveryWindow (src/core/delivery.ts), tested against it. A processing
-- time it cannot read ("soon") gives null: no promise, never late.
CREATE FUNCTION "transfer_due_at"("start" timestamptz, "processing_time" text) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  m text[] := regexp_match(trim("processing_time"), '^(\d+)-(\d+) (min|h|business days)$');
  high int;
  due timestamp;
  left_days int;
BEGIN
  IF m IS NULL OR m[1]::int > m[2]::int THEN RETURN NULL; END IF;
  high := m[2]::int;
  IF m[3] = 'min' THEN RETURN "start" + make_interval(mins => high); END IF;
  IF m[3] = 'h' THEN RETURN "start" + make_interval(hours => high); END IF;
  -- Business days: Monday to Friday, counted in UTC.
  due := "start" AT TIME ZONE 'UTC';
  left_days := high;
  WHILE left_days > 0 LOOP
    due := due + interval '1 day';
    IF extract(isodow FROM due) < 6 THEN left_days := left_days - 1; END IF;
  END LOOP;
  RETURN due AT TIME ZONE 'UTC';
END $$;
