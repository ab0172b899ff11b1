-- Search folding, equal to foldForSearch in @trasa/domain (translit.ts): lower case, Serbian Cyrillic to
-- Latin (љ→lj, њ→nj, џ→dž), then đ→dj, č/ć→c, š→s, ž→z. Upper-case Serbian letters are lowered by
-- translate() too, so the result does not depend on the database's locale (IMMUTABLE holds).
-- Written by hand: drizzle-kit does not generate functions.
CREATE OR REPLACE FUNCTION trasa_fold(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT translate(
    replace(replace(replace(replace(replace(
      translate(lower(t), 'АБВГДЂЕЖЗИЈКЛЉМНЊОПРСТЋУФХЦЧЏШČĆŠŽĐ', 'абвгдђежзијклљмнњопрстћуфхцчџшčćšžđ'),
      'љ', 'lj'), 'њ', 'nj'), 'џ', 'dz'), 'ђ', 'dj'), 'đ', 'dj'),
    'абвгдежзијклмнопрстћуфхцчшčćšž',
    'abvgdezzijklmnoprstcufhccsccsz')
$$;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "search_text" text GENERATED ALWAYS AS (trasa_fold("naziv" || ' ' || "kratak_naziv" || ' ' || "cirilica")) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text GENERATED ALWAYS AS (trasa_fold("ime" || ' ' || "prezime" || ' ' || "email")) STORED;--> statement-breakpoint
CREATE UNIQUE INDEX "group_types_naziv_uq" ON "group_types" USING btree (lower("naziv"));--> statement-breakpoint
CREATE INDEX "groups_search_idx" ON "groups" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("prezime","ime","id");--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin ("search_text" gin_trgm_ops);