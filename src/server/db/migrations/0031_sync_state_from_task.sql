-- A package sync's state is written once, to its github-sync task (issue 29 item 5): the Tasks view reads the task,
-- and the package's badge reads packages.sync_status and sync_error, which this trigger derives from the task in the
-- same statement, so the two cannot disagree. A task that starts (queued, perhaps behind a running sync) leaves the
-- package as it was; progress is syncing; completed is ready; failed is failed with the task's message. The sync
-- code writes neither column. A restore loads rows with user triggers off, so restored packages keep their state.
CREATE FUNCTION "packgate_package_sync_state"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  state text := CASE NEW."status" WHEN 'progress' THEN 'syncing' WHEN 'completed' THEN 'ready' ELSE 'failed' END;
  problem text := CASE WHEN NEW."status" = 'failed' THEN NEW."message" END;
BEGIN
  UPDATE "packages" SET "sync_status" = state, "sync_error" = problem
    WHERE "id" = (NEW."data"->>'packageId')::uuid
      AND ("sync_status" IS DISTINCT FROM state OR "sync_error" IS DISTINCT FROM problem);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_package_sync_state" AFTER INSERT OR UPDATE OF "status", "message" ON "tasks"
  FOR EACH ROW WHEN (NEW."type" = 'github-sync' AND NEW."status" <> 'started' AND NEW."data"->>'packageId' ~ '^[0-9a-fA-F-]{36}$')
  EXECUTE FUNCTION "packgate_package_sync_state"();
