-- The package lifecycle tables (security advisories, abandonment, yanked versions) change what a package's p2 file
-- says, so their writes announce the package on the access change feed like package_versions (migration 0013): the
-- warm path then drops the package's held metadata. Advisory notices decide nothing Composer sees.
CREATE TRIGGER "security_advisories_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "security_advisories"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('p', 'package_id');
--> statement-breakpoint
CREATE TRIGGER "package_abandonments_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "package_abandonments"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('p', 'package_id');
--> statement-breakpoint
CREATE TRIGGER "version_yanks_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "version_yanks"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('p', 'package_id');
--> statement-breakpoint
CREATE TRIGGER "security_advisories_announce_access_truncate" AFTER TRUNCATE ON "security_advisories"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
CREATE TRIGGER "package_abandonments_announce_access_truncate" AFTER TRUNCATE ON "package_abandonments"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
CREATE TRIGGER "version_yanks_announce_access_truncate" AFTER TRUNCATE ON "version_yanks"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
