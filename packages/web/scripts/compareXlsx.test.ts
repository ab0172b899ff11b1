/** The reports comparison's xlsx (web features/reports/compare.ts): counts and taxes as numbers with a number format. */

import * as XLSX from '@e965/xlsx';
import type { CompareReport } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { compareSheet, compareTable } from '../src/features/reports/compare';

describe('the comparison xlsx', () => {
  it('writes counts and taxes as numbers with their number format, texts formula-safe', () => {
    const a = {
      type: 'ijoTaxesReport',
      rows: [
        {
          klasterId: 'k',
          imaocId: 'i',
          ugovor: '=U1',
          klaster: 'OŠ Lipolist',
          imaoc: 'Putevi Srbije',
          zaduzen: 'Naručilac',
          status: true,
          taksa: 58320,
        },
      ],
    } as unknown as CompareReport;
    const b = { ...a, rows: [{ ...(a.rows[0] as object), taksa: 1250.5 }] } as unknown as CompareReport;
    const sheet = compareSheet(XLSX, compareTable('ijoTaxesReport', a, b), '2026-11-01', '2026-11-02');
    // Ugovor, Klaster, Imalac, Platilac, then Urađeno ×2, Taksa ×2, Izmenjeno.
    expect(sheet.A2?.v).toBe("'=U1");
    expect([sheet.G2?.t, sheet.G2?.v, sheet.G2?.z]).toEqual(['n', 58320, '#,##0.00']);
    expect([sheet.H2?.t, sheet.H2?.v, sheet.H2?.z]).toEqual(['n', 1250.5, '#,##0.00']);

    const summary = (count: number) =>
      ({ type: 'summaryReport', rows: [{ kratakNaziv: 'A1', naziv: 'Projekat', count }] }) as unknown as CompareReport;
    const counts = compareSheet(XLSX, compareTable('summaryReport', summary(1250), summary(3)), '2026-11-01', '2026-11-02');
    expect([counts.C2?.t, counts.C2?.v, counts.C2?.z]).toEqual(['n', 1250, '#,##0']);
    expect([counts.D2?.t, counts.D2?.v]).toEqual(['n', 3]);
  });
});
