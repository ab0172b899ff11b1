import { type ActivityRowDto, type ActivityStatus, KLIZNO, type Rok } from '@trasa/domain';
import { activityColour, daysLeft } from '../../shared/activityColour.js';

/** ActivityRowDto (packages/domain dto/activities.ts), field by field. */

export type ActivityRow = {
  id: string;
  code: string;
  status: string;
  datumPocetka: string | null;
  datumZavrsetka: string | null;
  rokZavrsetka: string | null;
  returned: number;
  naziv: string;
  odgovoran: string[];
  /** The catalogue's rok now (null: klizno). */
  rok: number | null;
  clusterId: string;
  clusterNaziv: string;
  contractId: string | null;
  contractNaziv: string | null;
};

const DAY = 86_400_000;

/**
 * The deadline this activity runs under: a started one keeps the rok it started with (its deadline
 * minus its start, or klizno without a deadline), since a catalogue change applies to activities
 * started after it; one not started shows the catalogue's.
 */
export function rokOf(row: Pick<ActivityRow, 'datumPocetka' | 'rokZavrsetka' | 'rok'>): Rok {
  if (row.datumPocetka) {
    if (!row.rokZavrsetka) return KLIZNO;
    return Math.round((Date.parse(`${row.rokZavrsetka}T00:00:00Z`) - Date.parse(`${row.datumPocetka}T00:00:00Z`)) / DAY);
  }
  return row.rok ?? KLIZNO;
}

export function presentActivityRow(row: ActivityRow, today: string, now: Date): ActivityRowDto {
  return {
    _id: row.id,
    kratakNaziv: row.code,
    naziv: row.naziv,
    status: row.status as ActivityStatus,
    odgovoran: [...row.odgovoran],
    rok: rokOf(row),
    datumPocetka: row.datumPocetka,
    datumZavrsetka: row.datumZavrsetka,
    rokZavrsetka: row.rokZavrsetka,
    brojDanaDoRoka: daysLeft(row, today),
    returned: row.returned,
    boja: activityColour(row, now),
    lokacija: { _id: row.clusterId, naziv: row.clusterNaziv },
    ugovor: row.contractId ? { _id: row.contractId, naziv: row.contractNaziv ?? '' } : null,
  };
}
