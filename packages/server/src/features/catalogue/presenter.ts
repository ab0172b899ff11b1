import { type CatalogueEntryDto, KLIZNO } from '@trasa/domain';
import type { activityCatalogue } from '../../db/schema-activities.js';

/** CatalogueEntryDto (packages/domain dto/activities.ts), field by field. */
export function presentCatalogueEntry(row: typeof activityCatalogue.$inferSelect): CatalogueEntryDto {
  return {
    _id: row.code,
    kratakNaziv: row.code,
    naziv: row.naziv,
    prethodna: [...row.prethodna],
    naredna: [...row.naredna],
    odgovoran: [...row.odgovoran],
    rok: row.rok ?? KLIZNO,
    kontrolna: row.kontrolna,
    brojFajlova: row.brojFajlova,
    dokumenta: row.dokumenta,
    uputstvo: row.uputstvo,
  };
}
