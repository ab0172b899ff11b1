import { describe, expect, it } from 'vitest';
import { cleanAmountInput, formatAmount, formatMoneyRsd, parseAmountText, parseImportedAmount, understoodAmount } from './amounts.js';

/** The field's text after typing `text` one character at a time from empty, with the refusals met. */
function typeInto(text: string, decimals: number): { value: string; refused: string[] } {
  let value = '';
  const refused: string[] = [];
  for (const ch of text) {
    const r = cleanAmountInput(value + ch, value, decimals);
    value = r.value;
    if (r.refused) refused.push(r.refused);
  }
  return { value, refused };
}

describe('cleanAmountInput (the keystroke filter)', () => {
  it.each([
    // typed, decimals, field text, refusals, stored, shown
    ['2.500,50', 2, '2.50', ['decimals', 'separator', 'decimals', 'decimals'], 2.5, '= 2,50 RSD'],
    ['15.000', 2, '15.00', ['decimals'], 15, '= 15,00 RSD'],
    ['10,123456', 2, '10.12', ['decimals', 'decimals', 'decimals', 'decimals'], 10.12, '= 10,12 RSD'],
    ['2500,50', 2, '2500.50', [], 2500.5, '= 2.500,50 RSD'],
    ['1e5', 2, '15', ['characters'], 15, '= 15,00 RSD'],
    ['-3', 2, '3', ['characters'], 3, '= 3,00 RSD'],
    [' 12 ', 2, '12', [], 12, '= 12,00 RSD'],
    ['0,5', 2, '0.5', [], 0.5, '= 0,50 RSD'],
    [',5', 2, '.5', [], 0.5, '= 0,50 RSD'],
    ['5,', 2, '5.', [], 5, '= 5,00 RSD'],
    ['abc', 2, '', ['characters', 'characters', 'characters'], null, null],
    ['1 000', 2, '1000', [], 1000, '= 1.000,00 RSD'],
    ['1..5', 2, '1.5', ['separator'], 1.5, '= 1,50 RSD'],
    ['0', 2, '0', [], 0, '= 0,00 RSD'],
  ] as const)('typing %s with %i decimals', (typed, decimals, text, refusals, stored, shown) => {
    const r = typeInto(typed, decimals);
    expect(r.value).toBe(text);
    expect(r.refused).toEqual(refusals);
    expect(parseAmountText(r.value, decimals)).toBe(stored);
    expect(understoodAmount(r.value, decimals, 'RSD')).toBe(shown);
  });

  it('refuses a whole paste that breaks the rule and keeps the previous text', () => {
    expect(cleanAmountInput('2.500,50', '7', 2)).toEqual({ value: '7', refused: 'separator' });
    expect(cleanAmountInput('10,123456', '', 2)).toEqual({ value: '', refused: 'decimals' });
    expect(cleanAmountInput('12 500 RSD', '', 2)).toEqual({ value: '', refused: 'characters' });
    expect(cleanAmountInput('1\u00a0250,5', '', 2)).toEqual({ value: '1250.5', refused: null });
  });

  it('never refuses a deletion: a value kept from before the rule can be corrected', () => {
    expect(cleanAmountInput('2.500', '2.5005', 2)).toEqual({ value: '2.500', refused: null });
    expect(parseAmountText('2.500', 2)).toBeNull();
    expect(cleanAmountInput('2.5009', '2.500', 2)).toEqual({ value: '2.500', refused: 'decimals' });
    expect(cleanAmountInput('1.2.3', '123456', 2)).toEqual({ value: '123456', refused: 'separator' });
  });

  it('counts take no separator at all; inventory quantities three decimals', () => {
    expect(typeInto('12,5', 0)).toEqual({ value: '125', refused: ['decimals'] });
    expect(typeInto('1,2505', 3)).toEqual({ value: '1.250', refused: ['decimals'] });
    expect(understoodAmount('1250.5', 2, 'm')).toBe('= 1.250,5 m');
    expect(understoodAmount('1.250', 3, 'm')).toBe('= 1,25 m');
  });
});

describe('parseAmountText (what the server accepts)', () => {
  it.each([
    ['2.50', 2, 2.5],
    ['2,50', 2, 2.5],
    ['2.500,50', 2, null],
    ['1,2,3', 2, null],
    ['10,123', 2, null],
    ['10,12', 2, 10.12],
    ['0.1', 2, 0.1],
    ['1e5', 2, null],
    ['-3', 2, null],
    ['+3', 2, null],
    [' 12 ', 2, 12],
    ['1 000', 2, 1000],
    ['', 2, null],
    ['   ', 2, null],
    ['.', 2, null],
    ['abc', 2, null],
    ['12 500 RSD', 2, null],
    ['Infinity', 2, null],
    ['999999999999.99', 2, 999999999999.99],
    ['1000000000000', 2, null],
    ['9'.repeat(400), 2, null],
    ['12', 0, 12],
    ['12.5', 0, null],
    ['12.', 0, null],
    ['1.250', 3, 1.25],
  ] as const)('%j with %i decimals is %j', (text, decimals, expected) => {
    expect(parseAmountText(text, decimals)).toBe(expected);
  });

  it('takes JSON numbers within the rule', () => {
    expect(parseAmountText(2.5, 2)).toBe(2.5);
    expect(parseAmountText(2.555, 2)).toBeNull();
    expect(parseAmountText(0.1 + 0.2, 2)).toBeNull();
    expect(parseAmountText(-1, 2)).toBeNull();
    expect(parseAmountText(Number.NaN, 2)).toBeNull();
    expect(parseAmountText(1e21, 2)).toBeNull();
    expect(parseAmountText(null, 2)).toBeNull();
  });

  it('reads exactly: the stored spelling round-trips without drift', () => {
    for (const s of ['0.01', '0.07', '1.10', '2500.50', '123456789.99', '0.29']) {
      const n = parseAmountText(s, 2);
      expect(n).not.toBeNull();
      expect(String(n)).toBe(String(Number(s)));
      expect(
        formatAmount(n as number, 2)
          .replace(/\./g, '')
          .replace(',', '.'),
      ).toBe(Number(s).toFixed(2));
    }
  });
});

describe('parseImportedAmount (spreadsheet cells)', () => {
  it.each([
    ['2.500,50', 2, 2500.5],
    ['1.234.567,5', 2, 1234567.5],
    ['2.500,505', 2, null],
    ['2,500.50', 2, null],
    ['1.2,5', 2, null],
    ['25.00,5', 2, null],
    ['2500,50', 2, 2500.5],
    ['15.000', 2, null],
    ['1.250', 3, 1.25],
    ['2.500,5', 3, 2500.5],
  ] as const)('%j with %i decimals is %j', (text, decimals, expected) => {
    expect(parseImportedAmount(text, decimals)).toBe(expected);
  });
  it('takes numbers from the sheet as they are', () => {
    expect(parseImportedAmount(2500.5, 2)).toBe(2500.5);
  });
});

describe('formatMoneyRsd', () => {
  it.each([
    [2500.5, '2.500,50 RSD'],
    [2.5, '2,50 RSD'],
    [15, '15,00 RSD'],
    [0, '0,00 RSD'],
    [1234567.891, '1.234.567,89 RSD'],
    [999, '999,00 RSD'],
  ])('%d is %s', (n, shown) => {
    expect(formatMoneyRsd(n)).toBe(shown);
  });
});
