-- The log's search at 1,000,000 rows for a rare word (issue 10 "Speed"; docs/decisions.md
-- "The log's search"; bench cases `logs search rare surname`, `… rare settlement`). Written by hand like 0010–0019: the schema files do not
-- declare it, so drizzle-kit leaves it alone.
--
-- A word whose trigrams are each in hundreds of thousands of rows ('radovanovic', 'markovac') cost the
-- trigram index 25–55 ms however few rows hold it. This index keeps, per row, every suffix (3 letters
-- or more) of every run of letters a–z in search_text (folded: both scripts, no diacritics). A run of
-- letters of the typed text lies inside a run of letters of any row that contains the text, so it is
-- the prefix of one of that run's suffixes: `'markovac':*` finds exactly the rows holding 'markovac'
-- inside a word, reading only their postings (features/logs/service.ts `letterMatch`). Digits and
-- punctuation split runs, so a UUID's or an e-mail's digits add no keys.
CREATE OR REPLACE FUNCTION trasa_letter_suffixes(t text) RETURNS tsvector
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  run text;
  suffixes text[] := '{}';
BEGIN
  -- PL/pgSQL: 33 µs a row against 44 µs for the same as one SQL query (regexp_split_to_table,
  -- generate_series, array_agg), which the index build at 1,000,000 rows pays a million times.
  -- array_to_tsvector sorts and drops the repeated ones.
  FOREACH run IN ARRAY string_to_array(regexp_replace(t, '[^a-z]+', ' ', 'g'), ' ') LOOP
    FOR i IN 1 .. length(run) - 2 LOOP
      suffixes := array_append(suffixes, substr(run, i));
    END LOOP;
  END LOOP;
  RETURN array_to_tsvector(suffixes);
END
$$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_logs_letters_idx" ON "audit_logs" USING gin (trasa_letter_suffixes("search_text"));--> statement-breakpoint
-- The planner's estimate of a word's rows (service.ts chooses the path by it) comes from the index
-- expression's statistics: with 300 (a sample of 90,000 rows, ANALYZE ~4 s at 1,000,000 rows) its
-- ~700 most common elements reach down to 0.08 % of rows, so a word not among them is estimated at
-- ~400 rows; with the default 100, at 5,000 whether it is in no row or in 1,500.
-- ANALYZE in the transaction that set it still reads the index's old target (measured: 483 elements
-- down to 1.2 %, every rare word estimated at 5,000), hence the session's default for this one ANALYZE.
ALTER INDEX "audit_logs_letters_idx" ALTER COLUMN 1 SET STATISTICS 300;--> statement-breakpoint
SET LOCAL default_statistics_target = 300;--> statement-breakpoint
ANALYZE "audit_logs";--> statement-breakpoint
RESET default_statistics_target;
