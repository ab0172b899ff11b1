-- The contracts lists in their default order per kind (issue 15 item 3; docs/decisions.md "Contracts lists:
-- the lineage read once, the order on an index"): GET /api/{route} sorts by datum_pocetka desc, naziv in
-- trasa_sr, id (features/contracts/presenter.ts contractOrder). Without an index on it every page sorted
-- all of the kind's rows (a top-N heapsort of ICU comparisons) and worked out a row's documents for each of
-- them before the sort; with it the Admin's page 1 is a walk of the kind's first entries stopped by LIMIT,
-- and the subqueries run for the page's rows only. An employee's lists (their lineage's contracts, a few)
-- read the index and sort what is left. Written by hand, like 0010's: the schema files do not declare
-- collated indexes, so drizzle-kit leaves it alone. 400 rows at production scale: instant.
CREATE INDEX IF NOT EXISTS "contracts_list_order_idx" ON "contracts" USING btree ("kind", "datum_pocetka" DESC, "naziv" COLLATE trasa_sr, "id");
