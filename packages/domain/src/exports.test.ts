import { describe, expect, it } from 'vitest';
import { csvLine, spreadsheetSafe } from './exports.js';

describe('spreadsheetSafe', () => {
  it('defuses what a spreadsheet would run as a formula and leaves the rest', () => {
    expect(spreadsheetSafe('=HYPERLINK("http://zlo")')).toBe('\'=HYPERLINK("http://zlo")');
    expect(spreadsheetSafe('+381 11 123')).toBe("'+381 11 123");
    expect(spreadsheetSafe('-5')).toBe("'-5");
    expect(spreadsheetSafe('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(spreadsheetSafe('\tx')).toBe("'\tx");
    expect(spreadsheetSafe('Ужице = 12')).toBe('Ужице = 12');
    expect(spreadsheetSafe('')).toBe('');
  });
});

describe('csvLine', () => {
  it('quotes cells with commas, quotes and line breaks', () => {
    expect(csvLine([2, 'Mokra Gora, Užice', 'rekao "da"', true, 'dva\nreda'])).toBe(
      '2,"Mokra Gora, Užice","rekao ""da""",true,"dva\nreda"',
    );
    expect(csvLine(['=1+1'])).toBe("'=1+1");
  });
});
