import type { IjoDto, IjoOdgovoran } from '@trasa/domain';
import type { ijoHolders } from '../../db/schema-activities.js';

export type IjoRow = typeof ijoHolders.$inferSelect;

export function presentIjo(row: IjoRow): IjoDto {
  return { _id: row.id, naziv: row.naziv, odgovoran: row.odgovoran as IjoOdgovoran };
}
