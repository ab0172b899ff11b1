-- The log's search for an e-mail or an IP address at 1,000,000 rows (issue 10 "Speed"; docs/decisions.md
-- "The log's search"; bench case `logs search rare e-mail`). Written by hand like
-- 0023: the schema files do not declare it, so drizzle-kit leaves it alone.
--
-- 'marko.123' or '10.20.30' has no rare run of letters (0023's letter index: 'marko' is in 76,000 rows,
-- an IP has none), so it went to the trigram index, whose posting lists of '  1', ' 12', 'mar', … hold
-- most rows (10–16 ms of PostgreSQL alone, 60–100 ms at 10 connections). This index keeps, per row, every
-- suffix (3 characters or more) of every run of the characters of an address (a–z, 0–9, . _ @ + -) that
-- holds a '.' or an '@' besides its final dots (which are dropped) — e-mails, IPs, 'firma.rs' — in
-- search_text (folded). A run of the typed text holding a '.' or an '@' before its final dots lies
-- inside such a run of any row holding the text, so without its final dots it is the prefix of one of
-- that run's suffixes: `'marko.123':*` finds every row holding it
-- (features/logs/service.ts `addressMatch`), the LIKE of the whole text then decides as before. A UUID
-- (URLs) has neither '.' nor '@' and adds no keys.
--
-- Both functions keep a suffix's first 64 characters and at most 1,000 suffixes a row; a row with more
-- gets the key '~long' instead of the rest, which every search also asks for (it cannot be the suffix of
-- a run: '~' is not in one). Before, a log row with a run of 2,048 letters (a long URL) could not be
-- written at all ("word is too long"), and ~1,400 letters overflowed the tsvector's 1 MB.
--
-- The two index functions call this one, so they carry the migration's search_path: PostgreSQL 17 and
-- later (the embedded server is 18) evaluate an index's expressions in CREATE INDEX, ANALYZE, VACUUM and
-- autovacuum with search_path = pg_catalog, pg_temp, where an unqualified trasa_run_suffixes is not found
-- ("No function matches the given name"): the upgrade and every ANALYZE of audit_logs would fail.
--
-- Every suffix (3 characters or more, its first 64 kept) of every run, at most 1,000, then '~long'.
CREATE OR REPLACE FUNCTION trasa_run_suffixes(runs text[]) RETURNS tsvector
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  run text;
  n int := 0;
  suffixes text[] := '{}';
BEGIN
  FOREACH run IN ARRAY runs LOOP
    FOR i IN 1 .. length(run) - 2 LOOP
      n := n + 1;
      IF n > 1000 THEN
        RETURN array_to_tsvector(array_append(suffixes, '~long'));
      END IF;
      suffixes := array_append(suffixes, substr(run, i, 64));
    END LOOP;
  END LOOP;
  -- array_to_tsvector sorts and drops the repeated ones.
  RETURN array_to_tsvector(suffixes);
END
$$;--> statement-breakpoint
-- A run's final dots (the end of a sentence: 'rs.', 'prijavio.') are not kept: a typed run is looked up
-- without them too.
CREATE OR REPLACE FUNCTION trasa_address_suffixes(t text) RETURNS tsvector
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT AS $$
BEGIN
  RETURN trasa_run_suffixes(ARRAY(
    SELECT r FROM (SELECT rtrim(m[1], '.') AS r FROM regexp_matches(t, '([a-z0-9._@+-]*[.@][a-z0-9._@+-]*)', 'g') m) runs
    WHERE r ~ '[.@]'));
END
$$;--> statement-breakpoint
-- The letter index's function (0023) with the same limits. Not rebuilt (~50 s at 1,000,000 rows): a
-- row already indexed has every suffix whole, and a search asks for the first 64 letters of a run as a
-- prefix (`'…':*`) and for '~long' besides, so it finds those rows as before; rows with a longer run
-- could not be written until now.
CREATE OR REPLACE FUNCTION trasa_letter_suffixes(t text) RETURNS tsvector
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT AS $$
BEGIN
  RETURN trasa_run_suffixes(string_to_array(regexp_replace(t, '[^a-z]+', ' ', 'g'), ' '));
END
$$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_logs_addresses_idx" ON "audit_logs" USING gin (trasa_address_suffixes("search_text"));--> statement-breakpoint
-- Estimates for the choice of path, as 0023's letter index (statistics target 300, ANALYZE with it).
ALTER INDEX "audit_logs_addresses_idx" ALTER COLUMN 1 SET STATISTICS 300;--> statement-breakpoint
SET LOCAL default_statistics_target = 300;--> statement-breakpoint
ANALYZE "audit_logs";--> statement-breakpoint
RESET default_statistics_target;
