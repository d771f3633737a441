-- The access change feed of the Composer repository's warm path (features/composer/access-cache.ts). Every write to a
-- table the repository's access queries read announces what it touched on the channel `packgate_access`, from inside
-- the writing transaction: PostgreSQL delivers it only once the transaction commits (never for a rollback), to every
-- listening connection of every process, and to a listening writer before its COMMIT returns. Because the database
-- itself announces, no writer (a route, a job, a script, psql) can forget to. Payloads are small keys:
--   c:{customer id}  a license holder's token or grants changed
--   s:{seller id}    a seller (slug, type), their subscription, or one of their packages changed
--   p:{package id}   a package's versions (or the package itself) changed
--   *                everything (TRUNCATE)
-- PostgreSQL folds identical notifications of one transaction into one.
CREATE FUNCTION "packgate_announce_access_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  position integer := 0;
BEGIN
  -- Arguments come in pairs: a payload prefix and the column whose value completes it.
  WHILE position < TG_NARGS LOOP
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('packgate_access', TG_ARGV[position] || ':' || (to_jsonb(OLD) ->> TG_ARGV[position + 1]));
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('packgate_access', TG_ARGV[position] || ':' || (to_jsonb(NEW) ->> TG_ARGV[position + 1]));
    END IF;
    position := position + 2;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "packgate_announce_access_flush"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('packgate_access', '*');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "grants_announce_access" AFTER INSERT OR DELETE ON "grants"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('c', 'customer_id');
--> statement-breakpoint
-- A download moves download_count and last_used_at on every dist request; without a limit neither decides access,
-- so those updates stay silent (and keep the other processes' warm views of the holder).
CREATE TRIGGER "grants_announce_access_update" AFTER UPDATE ON "grants"
  FOR EACH ROW WHEN (
    OLD."download_limit" IS NOT NULL OR NEW."download_limit" IS NOT NULL
    OR (to_jsonb(OLD) - 'download_count' - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'download_count' - 'last_used_at')
  ) EXECUTE FUNCTION "packgate_announce_access_change"('c', 'customer_id');
--> statement-breakpoint
CREATE TRIGGER "customers_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "customers"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('c', 'id');
--> statement-breakpoint
CREATE TRIGGER "packages_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "packages"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('s', 'owner_id', 'p', 'id');
--> statement-breakpoint
CREATE TRIGGER "package_versions_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "package_versions"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('p', 'package_id');
--> statement-breakpoint
CREATE TRIGGER "users_announce_access" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('s', 'id');
--> statement-breakpoint
CREATE TRIGGER "platform_subscriptions_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "platform_subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('s', 'user_id');
--> statement-breakpoint
CREATE TRIGGER "grants_announce_access_truncate" AFTER TRUNCATE ON "grants"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
CREATE TRIGGER "customers_announce_access_truncate" AFTER TRUNCATE ON "customers"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
CREATE TRIGGER "packages_announce_access_truncate" AFTER TRUNCATE ON "packages"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
CREATE TRIGGER "package_versions_announce_access_truncate" AFTER TRUNCATE ON "package_versions"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
CREATE TRIGGER "users_announce_access_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
CREATE TRIGGER "platform_subscriptions_announce_access_truncate" AFTER TRUNCATE ON "platform_subscriptions"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
