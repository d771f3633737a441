ALTER TABLE "download_holder_days" ADD COLUMN "running_downloads" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Keeps download_holder_days.running_downloads (the holder's downloads up to and including the day) in step with
-- downloads. A second statement-level trigger: PostgreSQL fires a table's triggers in name order, so it runs after
-- "downloads_roll_up" has upserted the day rows it reads. Each holder's days from the earliest inserted day on are
-- summed again from the running total before it: one row for a download of today, more only for a backdated import.
CREATE FUNCTION "downloads_roll_up_running"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
--> statement-breakpoint
CREATE TRIGGER "downloads_roll_up_running" AFTER INSERT ON "downloads"
  REFERENCING NEW TABLE AS "inserted_downloads"
  FOR EACH STATEMENT EXECUTE FUNCTION "downloads_roll_up_running"();
--> statement-breakpoint
UPDATE "download_holder_days" AS t SET "running_downloads" = s."running"
FROM (
  SELECT "customer_id", "day", sum("downloads") OVER (PARTITION BY "customer_id" ORDER BY "day") AS "running"
  FROM "download_holder_days"
) s
WHERE t."customer_id" = s."customer_id" AND t."day" = s."day";
