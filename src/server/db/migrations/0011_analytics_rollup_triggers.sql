-- Keeps the analytics rollups (schema/analytics.ts) in step with downloads, in the inserting statement's own
-- transaction. Statement level with a transition table: one aggregated upsert per table whatever the number of rows
-- (a bulk import costs three statements, not three per row).
CREATE FUNCTION "downloads_roll_up"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "downloads_roll_up" AFTER INSERT ON "downloads"
  REFERENCING NEW TABLE AS "inserted_downloads"
  FOR EACH STATEMENT EXECUTE FUNCTION "downloads_roll_up"();
--> statement-breakpoint
-- The downloads recorded before the rollups existed.
INSERT INTO "download_package_days" ("package_id", "day", "seller_id", "downloads")
SELECT d."package_id", (d."downloaded_at" AT TIME ZONE 'UTC')::date, p."owner_id", count(*)
FROM "downloads" d JOIN "packages" p ON p."id" = d."package_id"
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "download_grant_days" ("grant_id", "day", "network", "seller_id", "customer_id", "package_id", "downloads")
SELECT d."grant_id", (d."downloaded_at" AT TIME ZONE 'UTC')::date, coalesce(d."client_network", ''),
  c."seller_id", c."id", d."package_id", count(*)
FROM "downloads" d JOIN "grants" g ON g."id" = d."grant_id" JOIN "customers" c ON c."id" = g."customer_id"
GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO "grant_last_downloads" ("grant_id", "seller_id", "customer_id", "package_id", "version", "downloaded_at")
SELECT DISTINCT ON (d."grant_id") d."grant_id", c."seller_id", c."id", d."package_id", d."version", d."downloaded_at"
FROM "downloads" d JOIN "grants" g ON g."id" = d."grant_id" JOIN "customers" c ON c."id" = g."customer_id"
ORDER BY d."grant_id", d."downloaded_at" DESC, d."id" DESC;
