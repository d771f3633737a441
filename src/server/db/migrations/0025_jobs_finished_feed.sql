-- Announces the end of a job (completed or failed) on the channel `packgate_jobs`, with the job's id as the payload,
-- so that a process waiting for a job another process runs (src/server/jobs/job-runner.ts, waitFor) learns of it as
-- it commits instead of polling the row. PostgreSQL delivers it only once the writing transaction commits. Lease
-- renewals and claims change no status to an end and stay silent.
CREATE FUNCTION "packgate_announce_job_end"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('packgate_jobs', NEW."id"::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "jobs_announce_end" AFTER INSERT OR UPDATE OF "status" ON "jobs"
  FOR EACH ROW WHEN (NEW."status" IN ('completed', 'failed'))
  EXECUTE FUNCTION "packgate_announce_job_end"();
