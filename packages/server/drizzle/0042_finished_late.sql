-- The progress report's late counts (GET /api/report/progress; features/reports/progress.ts): the finished
-- activities that can be greenRed — with a deadline, finished after it or with no finish date — read from
-- this partial index instead of every activity with a deadline (the in-progress ones past it come from
-- activities_in_progress_idx). Small: a late finish is the exception.
CREATE INDEX IF NOT EXISTS "activities_finished_late_idx" ON "activities" USING btree ("cluster_id") WHERE status = 'Završena' and rok_zavrsetka is not null and (datum_zavrsetka is null or datum_zavrsetka > rok_zavrsetka);
