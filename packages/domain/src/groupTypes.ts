/**
 * Built-in group types. The codebook (/app/sifrarnici) may rename them or add others; rules key on the
 * fixed code, the UI shows `naziv`.
 */
export const GROUP_TYPE_CODES = ['IZVODJAC', 'PROJEKTANT', 'NADZOR', 'NARUCILAC', 'PIU_TA'] as const;
export type GroupTypeCode = (typeof GROUP_TYPE_CODES)[number];

export const DEFAULT_GROUP_TYPES: readonly { code: GroupTypeCode; naziv: string; kratakNaziv: string }[] = [
  { code: 'IZVODJAC', naziv: 'Izvođač', kratakNaziv: 'IZV' },
  { code: 'PROJEKTANT', naziv: 'Projektant', kratakNaziv: 'PRO' },
  { code: 'NADZOR', naziv: 'Nadzor', kratakNaziv: 'NAD' },
  { code: 'NARUCILAC', naziv: 'Naručilac', kratakNaziv: 'NAR' },
  { code: 'PIU_TA', naziv: 'ПИУ ТА', kratakNaziv: 'ПИУ ТА' },
];

/** The reserved group that is never listed for choice, assigned, edited or deleted (spec 1 §5). */
export const RESERVED_GROUP_NAMES: readonly string[] = ['Admin', 'Админ'];

export function isReservedGroupName(naziv: string | null | undefined): boolean {
  return !!naziv && RESERVED_GROUP_NAMES.some((n) => n.toLowerCase() === naziv.trim().toLowerCase());
}
