-- The IJO fees report in SQL (docs/decisions.md "Reports at production scale"): the domain's text
-- rules as immutable SQL functions, so the report's rows, totals and pages are computed where the data
-- is. Each must agree with its TypeScript twin (reports/amounts.test.ts feeds both the same inputs).
--
-- trasa_trim(t): String.prototype.trim — JavaScript's white space and line terminators at both ends.
CREATE OR REPLACE FUNCTION trasa_trim(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT regexp_replace(t, '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$', '', 'g') $$;
--> statement-breakpoint
-- trasa_amount_cleaned(t): parseAmount of @trasa/domain (activities/rules.ts): trimmed, one unit at the end
-- removed (rsd, din, din., dinara, eur, usd, m, metara and the Cyrillic м, метара, дин, дин., динара,
-- any case), every white space and apostrophe removed, the first comma read as the decimal point; then
-- -?digits(.digits)? of at most 10^12 as JavaScript's Number reads it (a value a hair above 10^12 that
-- rounds to it as a double is kept), else null. The letters' cases are spelled out: a regular
-- expression's 'i' flag follows the database's locale.
CREATE OR REPLACE FUNCTION trasa_amount_cleaned(t text) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  SELECT CASE
    WHEN c !~ '^-?[0-9]+(\.[0-9]+)?$' THEN NULL
    WHEN abs(c::numeric) <= 1000000000000 THEN c::numeric
    WHEN abs(c::numeric) < 1000000000001 AND abs(c::float8) <= 1e12 THEN c::numeric
  END
  FROM (SELECT regexp_replace(
    regexp_replace(
      regexp_replace(
        trasa_trim(t),
        '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*([Rr][Ss][Dd]|[Dd][Ii][Nn]\.?|[Dd][Ii][Nn][Aa][Rr][Aa]|[Ee][Uu][Rr]|[Uu][Ss][Dd]|[Mm]|[Mm][Ee][Tt][Aa][Rr][Aa]|[Мм]|[Мм][Ее][Тт][Аа][Рр][Аа]|[Дд][Ии][Нн]\.?|[Дд][Ии][Нн][Аа][Рр][Аа])$',
        ''),
      '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'']', '', 'g'),
    ',', '.') AS c) cleaned -- the first comma only, as String.prototype.replace
  $$;
--> statement-breakpoint
-- trasa_amount(t): the same, with a plain number (digits, a dot) of at most 10^12 read at once: one
-- expression without FROM, so PostgreSQL inlines it into the report's statement (a function with a FROM
-- runs as a function call per row: 25 µs each, 4,536 rows ~110 ms at 3,000 clusters). Anything else
-- goes through trasa_amount_cleaned. Nested CASEs, not AND: a constant argument is folded arm by arm.
CREATE OR REPLACE FUNCTION trasa_amount(t text) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  SELECT CASE WHEN t ~ '^-?[0-9]+(\.[0-9]+)?$'
    THEN CASE WHEN abs(t::numeric) <= 1000000000000 THEN t::numeric ELSE trasa_amount_cleaned(t) END
    ELSE trasa_amount_cleaned(t)
  END
  $$;
