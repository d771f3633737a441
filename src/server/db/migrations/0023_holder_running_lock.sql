-- Serializes the running totals of migration 0021 per holder. Two transactions downloading for one holder on two
-- days (around midnight UTC) could each sum from a snapshot without the other's day row, leaving a running total
-- short for good. Each transaction now takes a lock per holder first (in holder order, so never a deadlock); the
-- UPDATE that follows takes its snapshot after the lock, so it sees the other transaction's committed rows.
CREATE OR REPLACE FUNCTION "downloads_roll_up_running"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(727275, hashtext(h."customer_id"::text))
  FROM (
    SELECT DISTINCT g."customer_id" FROM "inserted_downloads" i JOIN "grants" g ON g."id" = i."grant_id"
  ) h
  ORDER BY hashtext(h."customer_id"::text);

  UPDATE "download_holder_days" AS t SET "running_downloads" = s."running"
  FROM (
    SELECT h."customer_id", h."day",
      coalesce((SELECT p."running_downloads" FROM "download_holder_days" p
        WHERE p."customer_id" = h."customer_id" AND p."day" < f."first_day" ORDER BY p."day" DESC LIMIT 1), 0)
        + sum(h."downloads") OVER (PARTITION BY h."customer_id" ORDER BY h."day") AS "running"
    FROM (
      SELECT g."customer_id", min((i."downloaded_at" AT TIME ZONE 'UTC')::date) AS "first_day"
      FROM "inserted_downloads" i JOIN "grants" g ON g."id" = i."grant_id"
      GROUP BY 1
    ) f
    JOIN "download_holder_days" h ON h."customer_id" = f."customer_id" AND h."day" >= f."first_day"
  ) s
  WHERE t."customer_id" = s."customer_id" AND t."day" = s."day" AND t."running_downloads" <> s."running";
  RETURN NULL;
END;
$$;
