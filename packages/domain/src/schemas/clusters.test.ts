import { describe, expect, it } from 'vitest';
import { clusterSchema, contractCreateSchema, settlementSchema, topicCommentSchema } from './clusters.js';

const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('cluster form (spec 2 §5)', () => {
  it('requires a name and takes decimals with a dot or a comma', () => {
    expect(first(clusterSchema.safeParse({ naziv: '  ' }))).toBe('Поље је обавезно');
    const ok = clusterSchema.parse({ naziv: ' Klaster Zlatibor ', indikativnaDuzinaKlastera: '12,5', ugovorenaVrednostKlastera: 1000.25 });
    expect(ok).toMatchObject({
      naziv: 'Klaster Zlatibor',
      indikativnaDuzinaKlastera: 12.5,
      ugovorenaVrednostKlastera: 1000.25,
      odgovoran: [],
    });
    expect(first(clusterSchema.safeParse({ naziv: 'K', indikativnaDuzinaKlastera: '12a' }))).toBe('Морате унети број');
    expect(first(clusterSchema.safeParse({ naziv: 'K', odgovoran: ['nije-id'] }))).toBe('Поље је обавезно');
  });
});

describe('settlement (spec 2 §5)', () => {
  it('trims, converts counts, splits municipalities', () => {
    const s = settlementSchema.parse({
      id: ' 70017 ',
      naziv: ' Mokra Gora ',
      opstina: ' Užice, Čajetina ,',
      brojSkola: '2',
      brojDomacinstava: '',
    });
    expect(s).toMatchObject({ id: '70017', naziv: 'Mokra Gora', opstina: ['Užice', 'Čajetina'], brojSkola: 2, brojDomacinstava: null });
    expect(first(settlementSchema.safeParse({ id: '', naziv: 'X' }))).toBe('Morate upisati ID.');
    expect(first(settlementSchema.safeParse({ id: '1', naziv: 'X', brojSkola: 'dva' }))).toBe('Mora biti broj ako je unet.');
    expect(first(settlementSchema.safeParse({ id: '1', naziv: 'X', brojSkola: -1 }))).toBe('Broj mora biti >= 0');
  });
});

describe('contract form', () => {
  it('requires naziv, broj, a real date and a whole number of days', () => {
    expect(contractCreateSchema.safeParse({ naziv: 'U', broj: '1/26', datumPocetka: '2026-02-30', rokTrajanja: 10 }).success).toBe(false);
    expect(first(contractCreateSchema.safeParse({ naziv: 'U', broj: '1/26', datumPocetka: '2026-02-01', rokTrajanja: 'x' }))).toBe(
      'Морате унети број',
    );
    expect(contractCreateSchema.parse({ naziv: 'U', broj: '1/26', datumPocetka: '2026-02-01', rokTrajanja: '90' }).rokTrajanja).toBe(90);
  });
});

describe('topic comment', () => {
  it('refuses a blank comment', () => {
    expect(first(topicCommentSchema.safeParse({ tekst: '   ' }))).toBe('Ne možete poslati praznu poruku.');
  });
});
