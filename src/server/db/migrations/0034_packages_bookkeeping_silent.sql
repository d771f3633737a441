-- A package's bookkeeping decides no access: the sync's state (set from its task by 0031's trigger), the last sync
-- and reconciliation, the skipped references and the code host's access problem. Announcing them as a seller's change
-- dropped every held view of every holder of the seller at each step of each package's sync (issue 34). An update that
-- changes only those columns (and updated_at) stays silent; any other change, a new column's included, is announced as
-- before, and so are every insert and delete.
DROP TRIGGER "packages_announce_access" ON "packages";
--> statement-breakpoint
CREATE TRIGGER "packages_announce_access" AFTER INSERT OR DELETE ON "packages"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('s', 'owner_id', 'p', 'id');
--> statement-breakpoint
CREATE TRIGGER "packages_announce_access_update" AFTER UPDATE ON "packages"
  FOR EACH ROW WHEN (
    (to_jsonb(OLD) - 'sync_status' - 'sync_error' - 'last_synced_at' - 'skipped_references' - 'last_reconciled_at'
      - 'access_problem' - 'access_problem_since' - 'access_problem_notified_at' - 'updated_at')
    IS DISTINCT FROM
    (to_jsonb(NEW) - 'sync_status' - 'sync_error' - 'last_synced_at' - 'skipped_references' - 'last_reconciled_at'
      - 'access_problem' - 'access_problem_since' - 'access_problem_notified_at' - 'updated_at')
  ) EXECUTE FUNCTION "packgate_announce_access_change"('s', 'owner_id', 'p', 'id');
