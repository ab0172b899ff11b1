/**
 * One script means one script, for what the product ships and the API sends as data: catalogue texts,
 * built-in group types and roles, A20's test types, data-item labels, the metre and MUI's own texts read
 * in the chosen script; what people typed (a type or role the Admin named, an additional fee's name) stays
 * as typed.
 */
import { A20_TEST_TYPES, ACTIVITY_CATALOGUE, DATA_KEYS } from '@trasa/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { metres } from '../src/components/units';
import { setScript } from '../src/script';
import {
  activityTitle,
  catalogueText,
  dataItemName,
  groupTypeName,
  roleName,
  roleShortName,
  testTypeName,
  testTypeNames,
} from '../src/shipped';
import { appTheme } from '../src/theme';

afterEach(() => setScript('cyr'));

const CYRILLIC = /[\u0400-\u04FF]/;

describe('names the product ships', () => {
  it('read the catalogue in the chosen script, codes as written', () => {
    const a41 = ACTIVITY_CATALOGUE.find((e) => e.code === 'A4.1');
    expect(a41?.naziv).toBe('Kontrola IDR');
    expect(activityTitle({ kratakNaziv: 'A4.1', naziv: 'Kontrola IDR' })).toBe('A4.1 - Контрола ИДР');
    expect(catalogueText('Informacija o lokaciji (IOL)')).toBe('Информација о локацији (ИОЛ)');
    setScript('lat');
    expect(activityTitle({ kratakNaziv: 'A4.1', naziv: 'Контрола ИДР' })).toBe('A4.1 - Kontrola IDR');
    for (const entry of ACTIVITY_CATALOGUE) expect(catalogueText(entry.naziv)).not.toMatch(CYRILLIC);
  });

  it('convert the built-in group types and roles, and leave those the Admin named as typed', () => {
    expect(groupTypeName('Izvođač')).toBe('Извођач');
    expect(groupTypeName('NAR')).toBe('НАР');
    expect(groupTypeName('Operater mreže')).toBe('Operater mreže');
    expect(roleName('Zaposleni')).toBe('Запослени');
    expect(roleName('Koordinator')).toBe('Koordinator');
    expect(roleShortName({ kratakNaziv: 'ZAP', ugradjena: true })).toBe('ЗАП');
    expect(roleShortName({ kratakNaziv: 'KOO', ugradjena: false })).toBe('KOO');
    setScript('lat');
    expect(groupTypeName('ПИУ ТА')).toBe('PIU TA');
    expect(groupTypeName('Тим за мрежу')).toBe('Тим за мрежу');
    expect(roleName('Gost')).toBe('Gost');
  });

  it("name A20's test types and the data items in the chosen script, a typed fee's name as typed", () => {
    expect(testTypeName(1)).toBe('Тест при преузимању оптичких каблова');
    expect(testTypeName('6')).toBeUndefined();
    expect(testTypeNames()).toHaveLength(A20_TEST_TYPES.length);
    expect(dataItemName('A26.1', { key: DATA_KEYS.number, naziv: '' })).toBe('Број прикључених домаћинстава');
    expect(dataItemName('A2', { key: DATA_KEYS.date, naziv: 'Datum' })).toBe('Датум');
    expect(dataItemName('A7', { key: DATA_KEYS.extraFee, naziv: 'Taksa za Telekom' })).toBe('Додатна такса (RSD): Taksa za Telekom');
    setScript('lat');
    expect(testTypeNames().join(' ')).not.toMatch(CYRILLIC);
    expect(dataItemName('A2', { key: DATA_KEYS.date, naziv: 'Датум' })).toBe('Datum');
  });
});

describe("the web's own units and MUI's texts", () => {
  it('write the metre and the pickers of MUI in the chosen script', () => {
    expect(metres()).toBe('м');
    const cyr = appTheme('cyr').components?.MuiAutocomplete?.defaultProps;
    expect([cyr?.openText, cyr?.closeText, cyr?.noOptionsText]).toEqual(['Отвори', 'Затвори', 'Нема опција']);
    expect(appTheme('cyr').components?.MuiAlert?.defaultProps?.closeText).toBe('Затвори');
    const paging = appTheme('cyr').components?.MuiTablePagination?.defaultProps;
    expect(paging?.labelDisplayedRows?.({ from: 1, to: 10, count: 25, page: 0 })).toBe('1–10 од 25');
    setScript('lat');
    expect(metres()).toBe('m');
    expect(appTheme('lat').components?.MuiAutocomplete?.defaultProps?.openText).toBe('Otvori');
  });
});
