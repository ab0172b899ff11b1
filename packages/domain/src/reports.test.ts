import { describe, expect, it } from 'vitest';
import { backfillDays, formatMetres, formatRsd, parseReportDate } from './messages/reports.js';

describe('reports helpers', () => {
  it('backfill days: 1–60, default 10, anything else 10 (spec 3 §5)', () => {
    expect([1, '60', ' 7 ', 0, 61, -3, 2.5, 'abc', '', undefined, null].map(backfillDays)).toEqual([
      1, 60, 7, 10, 10, 10, 10, 10, 10, 10, 10,
    ]);
  });

  it('compare dates: DD.MM.YYYY or YYYY-MM-DD, real dates only', () => {
    expect(parseReportDate('01.02.2026')).toBe('2026-02-01');
    expect(parseReportDate('1.2.2026.')).toBe('2026-02-01');
    expect(parseReportDate('2026-02-28')).toBe('2026-02-28');
    for (const bad of ['31.02.2026', '2026-13-01', '2026-2-1', 'danas', '', undefined]) expect(parseReportDate(bad)).toBeNull();
  });

  it('money as 1.234,56 RSD and lengths in metres', () => {
    expect(formatRsd(1234.5)).toBe('1.234,50 RSD');
    expect(formatRsd(1234567.891)).toBe('1.234.567,89 RSD');
    expect(formatRsd(0)).toBe('0,00 RSD');
    expect(formatRsd(null)).toBe('');
    expect(formatMetres(1200.5)).toBe('1.200,5 m');
    expect(formatMetres(800)).toBe('800 m');
    expect(formatMetres(null)).toBe('');
  });
});
