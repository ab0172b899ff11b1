import { describe, expect, it } from 'vitest';
import { formatMetres, formatRsd } from './messages/reports.js';
import { formatQuantity } from './numbers.js';

describe('numbers as Serbs write them', () => {
  it('quantities: a dot between thousands, a decimal comma, the unit after a space', () => {
    expect(formatQuantity(1250.5, 'm')).toBe('1.250,5 m');
    expect(formatQuantity(1250.5)).toBe('1.250,5');
    expect(formatQuantity(3, 'kom')).toBe('3 kom');
    expect(formatQuantity(1234567.125)).toBe('1.234.567,125');
    expect(formatQuantity(0.1 + 0.2)).toBe('0,3');
    expect(formatQuantity(-1250.5)).toBe('-1.250,5');
    expect(formatQuantity(-0.0001)).toBe('0');
    expect(formatQuantity(999.9999)).toBe('1.000');
    expect(formatQuantity(2.456, 'm', 2)).toBe('2,46 m');
    expect(formatQuantity(null, 'm')).toBe('');
    expect(formatQuantity(Number.NaN)).toBe('');
  });

  it('money: two decimals and RSD; lengths in metres', () => {
    expect(formatRsd(58320)).toBe('58.320,00 RSD');
    expect(formatMetres(1200.5)).toBe('1.200,5 m');
    expect(formatMetres(1200.456)).toBe('1.200,46 m');
    expect(formatMetres(null)).toBe('');
  });
});
