import type { IjoOdgovoran } from '@trasa/domain';
import { ijoHolders } from '../db/schema-activities.js';
import type { Executor } from '../platform/database.js';

/**
 * The public-authority holders a rural fibre route typically meets (design/glossary.md), with who pays
 * their fee. Running it twice adds nothing: the name is the holder's natural key (unique index).
 */
export const DEMO_IJOS: { naziv: string; odgovoran: IjoOdgovoran }[] = [
  { naziv: 'JP „Putevi Srbije“', odgovoran: 'Izvođač' },
  { naziv: 'Elektrodistribucija Srbije d.o.o.', odgovoran: 'Izvođač' },
  { naziv: 'Telekom Srbija a.d.', odgovoran: 'Izvođač' },
  { naziv: 'JKP „Vodovod“ Užice', odgovoran: 'Izvođač' },
  { naziv: 'Srbijagas a.d.', odgovoran: 'Izvođač' },
  { naziv: 'Infrastruktura železnice Srbije a.d.', odgovoran: 'Izvođač' },
  { naziv: 'JP „Srbijašume“', odgovoran: 'Izvođač' },
  { naziv: 'Zavod za zaštitu spomenika kulture', odgovoran: 'Naručilac' },
  { naziv: 'MUP – Sektor za vanredne situacije', odgovoran: 'Naručilac' },
  { naziv: 'Javno vodoprivredno preduzeće „Srbijavode“', odgovoran: 'Naručilac' },
  { naziv: 'Zavod za zaštitu prirode Srbije', odgovoran: 'Naručilac' },
];

export async function seedDemoIjos(db: Executor): Promise<{ ijos: number }> {
  const added = await db.insert(ijoHolders).values(DEMO_IJOS).onConflictDoNothing().returning({ id: ijoHolders.id });
  return { ijos: added.length };
}
