-- Adds the holder-day rollups (download_holder_days, download_holder_day_networks) to the downloads trigger of
-- migration 0011, and fills them from the downloads recorded so far.
CREATE OR REPLACE FUNCTION "downloads_roll_up"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "download_package_days" AS t ("package_id", "day", "seller_id", "downloads")
  SELECT i."package_id", (i."downloaded_at" AT TIME ZONE 'UTC')::date, p."owner_id", count(*)
  FROM "inserted_downloads" i JOIN "packages" p ON p."id" = i."package_id"
  GROUP BY 1, 2, 3
  ORDER BY 1, 2
  ON CONFLICT ("package_id", "day") DO UPDATE SET "downloads" = t."downloads" + excluded."downloads";

  INSERT INTO "download_grant_days" AS t ("grant_id", "day", "network", "seller_id", "customer_id", "package_id", "downloads")
  SELECT i."grant_id", (i."downloaded_at" AT TIME ZONE 'UTC')::date, coalesce(i."client_network", ''),
    c."seller_id", c."id", i."package_id", count(*)
  FROM "inserted_downloads" i
  JOIN "grants" g ON g."id" = i."grant_id"
  JOIN "customers" c ON c."id" = g."customer_id"
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3
  ON CONFLICT ("grant_id", "day", "network") DO UPDATE SET "downloads" = t."downloads" + excluded."downloads";

  INSERT INTO "grant_last_downloads" AS t ("grant_id", "seller_id", "customer_id", "package_id", "version", "downloaded_at")
  SELECT DISTINCT ON (i."grant_id") i."grant_id", c."seller_id", c."id", i."package_id", i."version", i."downloaded_at"
  FROM "inserted_downloads" i
  JOIN "grants" g ON g."id" = i."grant_id"
  JOIN "customers" c ON c."id" = g."customer_id"
  ORDER BY i."grant_id", i."downloaded_at" DESC, i."id" DESC
  ON CONFLICT ("grant_id") DO UPDATE SET "version" = excluded."version", "downloaded_at" = excluded."downloaded_at"
    WHERE excluded."downloaded_at" >= t."downloaded_at";

  -- A network counts once per holder and day: only the rows this statement really added raise the count.
  WITH "rows" AS (
    SELECT c."id" AS "customer_id", c."seller_id", (i."downloaded_at" AT TIME ZONE 'UTC')::date AS "day", i."client_network"
    FROM "inserted_downloads" i
    JOIN "grants" g ON g."id" = i."grant_id"
    JOIN "customers" c ON c."id" = g."customer_id"
  ), "added_networks" AS (
    INSERT INTO "download_holder_day_networks" ("customer_id", "day", "network")
    SELECT DISTINCT "customer_id", "day", "client_network" FROM "rows" WHERE "client_network" IS NOT NULL
    ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING
    RETURNING "customer_id", "day"
  ), "added_counts" AS (
    SELECT "customer_id", "day", count(*) AS "added" FROM "added_networks" GROUP BY 1, 2
  )
  INSERT INTO "download_holder_days" AS t ("customer_id", "day", "seller_id", "downloads", "networks")
  SELECT r."customer_id", r."day", r."seller_id", count(*), coalesce(max(a."added"), 0)
  FROM "rows" r LEFT JOIN "added_counts" a ON a."customer_id" = r."customer_id" AND a."day" = r."day"
  GROUP BY 1, 2, 3
  ORDER BY 1, 2
  ON CONFLICT ("customer_id", "day") DO UPDATE
    SET "downloads" = t."downloads" + excluded."downloads", "networks" = t."networks" + excluded."networks";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
INSERT INTO "download_holder_day_networks" ("customer_id", "day", "network")
SELECT DISTINCT g."customer_id", (d."downloaded_at" AT TIME ZONE 'UTC')::date, d."client_network"
FROM "downloads" d JOIN "grants" g ON g."id" = d."grant_id"
WHERE d."client_network" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "download_holder_days" ("customer_id", "day", "seller_id", "downloads", "networks")
SELECT c."id", (d."downloaded_at" AT TIME ZONE 'UTC')::date, c."seller_id", count(*), count(DISTINCT d."client_network")
FROM "downloads" d JOIN "grants" g ON g."id" = d."grant_id" JOIN "customers" c ON c."id" = g."customer_id"
GROUP BY 1, 2, 3;
