-- Lists of names sort in the Serbian alphabet (c, č, ć, d, dž, đ …), not by byte value (where Č
-- follows Z): collation trasa_sr, ICU's Serbian Latin. A PostgreSQL built without ICU gets a copy of
-- "C" under the same name, so the queries that use it still run (docs/decisions.md "Serbian order").
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'trasa_sr') THEN
    IF EXISTS (SELECT 1 FROM pg_collation WHERE collprovider = 'i') THEN
      CREATE COLLATION trasa_sr (provider = icu, locale = 'sr-Latn');
    ELSE
      CREATE COLLATION trasa_sr FROM "C";
    END IF;
  END IF;
END
$$;
