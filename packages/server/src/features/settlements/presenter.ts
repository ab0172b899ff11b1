import type { SettlementDto } from '@trasa/domain';
import { settlements } from '../../db/schema-clusters.js';
import { serbianOrder } from '../../platform/database.js';

export type { SettlementDto };

export type SettlementRow = typeof settlements.$inferSelect;

/** The columns a SettlementDto needs (for selects joined with other tables). */
export const settlementColumns = {
  id: settlements.id,
  code: settlements.code,
  naziv: settlements.naziv,
  maticniBroj: settlements.maticniBroj,
  opstine: settlements.opstine,
  operator: settlements.operator,
  javniPoziv: settlements.javniPoziv,
  brojDomacinstava: settlements.brojDomacinstava,
  brojSkola: settlements.brojSkola,
  brojIndirektnoPokrivenihDomacinstava: settlements.brojIndirektnoPokrivenihDomacinstava,
  brojIndirektnoPokrivenihSkola: settlements.brojIndirektnoPokrivenihSkola,
};

export type SettlementFields = Pick<SettlementRow, keyof typeof settlementColumns>;

export function presentSettlement(row: SettlementFields): SettlementDto {
  return {
    _id: row.id,
    id: row.code,
    naziv: row.naziv,
    maticniBroj: row.maticniBroj,
    opstina: [...row.opstine],
    opstine: [...row.opstine],
    operator: row.operator,
    javniPoziv: row.javniPoziv,
    brojDomacinstava: row.brojDomacinstava,
    brojSkola: row.brojSkola,
    brojIndirektnoPokrivenihDomacinstava: row.brojIndirektnoPokrivenihDomacinstava,
    brojIndirektnoPokrivenihSkola: row.brojIndirektnoPokrivenihSkola,
  };
}

/** Settlements by name (then id, so pages never overlap). */
export const settlementOrder = [serbianOrder(settlements.naziv), settlements.id] as const;
