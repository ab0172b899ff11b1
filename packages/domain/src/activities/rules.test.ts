import { describe, expect, it } from 'vitest';
import type { DataItem } from '../dto/activities.js';
import { ACTIVITIES } from '../messages/activities.js';
import { ACTIVITY_CATALOGUE, catalogueEntry } from './catalogue.js';
import {
  a3Outcome,
  activityRevision,
  allowedDataKeys,
  checkDataItem,
  currentFiles,
  DATA_KEYS,
  decisionProblems,
  finishProblems,
  isFutureDate,
  isIsoDate,
  parseAmount,
  type RuleFile,
  type RuleInput,
  requiredFileCount,
  revisionFileName,
  staleStateReason,
} from './rules.js';

const d = (key: string, vrednost: string, ref?: string): DataItem => ({ key, naziv: key, vrednost, ...(ref && { ref }) });
const file = (slot: string | null = null, revision = 0): RuleFile => ({ slot, revision });

function input(code: string, over: Partial<RuleInput> = {}): RuleInput {
  return {
    code,
    brojFajlova: catalogueEntry(code)?.brojFajlova ?? 0,
    returned: 0,
    podaci: [],
    files: [],
    settlements: [],
    ...over,
  };
}

describe('finish rules (spec 3 §4)', () => {
  it('A1: one file per settlement of the cluster, by slot', () => {
    const settlements = [
      { _id: 's1', naziv: 'Sirogojno' },
      { _id: 's2', naziv: 'Rožanstvo' },
    ];
    expect(requiredFileCount(input('A1', { settlements }))).toBe(2);
    expect(finishProblems(input('A1', { settlements }))).toEqual([ACTIVITIES.filesNeeded(2)]);
    // Two files for the same settlement do not cover the other one.
    expect(finishProblems(input('A1', { settlements, files: [file('s1'), file('s1')] }))).toEqual([ACTIVITIES.filesNeeded(2)]);
    expect(finishProblems(input('A1', { settlements, files: [file('s1'), file('s2')] }))).toEqual([]);
  });

  it.each(['A2', 'A5', 'A10', 'A12', 'A13', 'A18'])('%s: a date', (code) => {
    expect(finishProblems(input(code))).toEqual([ACTIVITIES.enterField('datum')]);
    expect(finishProblems(input(code, { podaci: [d(DATA_KEYS.date, '  ')] }))).toEqual([ACTIVITIES.enterField('datum')]);
    expect(finishProblems(input(code, { podaci: [d(DATA_KEYS.date, '2025-03-01')] }))).toEqual([]);
  });

  it('A17: a number', () => {
    expect(finishProblems(input('A17'))).toEqual([ACTIVITIES.numberFor('Broj')]);
    expect(finishProblems(input('A17', { podaci: [d(DATA_KEYS.number, 'dugačko')] }))).toEqual([ACTIVITIES.numberFor('Broj')]);
    expect(finishProblems(input('A17', { podaci: [d(DATA_KEYS.number, '1250,5')] }))).toEqual([]);
  });

  it('A3: one of the two outcomes; "Nije potrebna IOL" needs one file', () => {
    expect(finishProblems(input('A3'))).toEqual([ACTIVITIES.required]);
    expect(finishProblems(input('A3', { podaci: [d(DATA_KEYS.yesNo, 'Možda')] }))).toEqual([ACTIVITIES.required]);
    expect(finishProblems(input('A3', { podaci: [d(DATA_KEYS.yesNo, 'Dobijena IOL')] }))).toEqual([]);
    expect(finishProblems(input('A3', { podaci: [d(DATA_KEYS.yesNo, 'Da')] }))).toEqual([]);
    expect(finishProblems(input('A3', { podaci: [d(DATA_KEYS.yesNo, 'Nije potrebna IOL')] }))).toEqual([ACTIVITIES.filesNeeded(1)]);
    expect(finishProblems(input('A3', { podaci: [d(DATA_KEYS.yesNo, 'ne')], files: [file()] }))).toEqual([]);
    expect(a3Outcome(' dobijena iol ')).toBe('obtained');
  });

  it('A7: every holder checked, every fee entered (0 allowed), one file per holder', () => {
    const holders = [d(DATA_KEYS.holders, 'h1,h2'), d(DATA_KEYS.holderNames, 'EPS, Telekom')];
    expect(finishProblems(input('A7', { podaci: holders }))).toEqual([
      ACTIVITIES.holdersUnchecked,
      ACTIVITIES.feesMissing,
      ACTIVITIES.filesNeeded(2),
    ]);
    const done = [...holders, d(DATA_KEYS.a7Checked, 'h1,h2'), d(DATA_KEYS.a7Fee, '0', 'h1'), d(DATA_KEYS.a7Fee, '12.500', 'h2')];
    expect(finishProblems(input('A7', { podaci: done, files: [file('h1')] }))).toEqual([ACTIVITIES.filesNeeded(2)]);
    expect(finishProblems(input('A7', { podaci: done, files: [file('h1'), file('h2')] }))).toEqual([]);
    const oneUnchecked = done.map((x) => (x.key === DATA_KEYS.a7Checked ? d(x.key, 'h2') : x));
    expect(finishProblems(input('A7', { podaci: oneUnchecked, files: [file('h1'), file('h2')] }))).toEqual([ACTIVITIES.holdersUnchecked]);
    const feeless = done.filter((x) => x.ref !== 'h2');
    expect(finishProblems(input('A7', { podaci: feeless, files: [file('h1'), file('h2')] }))).toEqual([ACTIVITIES.feesMissing]);
    // No holders: nothing to do.
    expect(finishProblems(input('A7'))).toEqual([]);
  });

  it('A20: five files, one per test type', () => {
    const four = ['1', '2', '3', '4'].map((s) => file(s));
    expect(requiredFileCount(input('A20'))).toBe(5);
    expect(finishProblems(input('A20', { files: [...four, file('4')] }))).toEqual([ACTIVITIES.filesNeeded(5)]);
    expect(finishProblems(input('A20', { files: [...four, file('5')] }))).toEqual([]);
  });

  it('file-count activities need brojFajlova files of the current revision', () => {
    for (const entry of ACTIVITY_CATALOGUE.filter((e) => e.brojFajlova > 0 && e.code !== 'A20')) {
      expect(finishProblems(input(entry.code)), entry.code).toEqual([ACTIVITIES.filesNeeded(entry.brojFajlova)]);
      expect(finishProblems(input(entry.code, { files: [file()] })), entry.code).toEqual([]);
    }
    // A4 sent back once: the first revision's file no longer counts.
    expect(finishProblems(input('A4', { returned: 1, files: [file(null, 0)] }))).toEqual([ACTIVITIES.filesNeeded(1)]);
    expect(finishProblems(input('A4', { returned: 1, files: [file(null, 0), file(null, 1)] }))).toEqual([]);
    // A restarted activity (version 1) counts by its revision.
    expect(finishProblems(input('A9', { returned: 0, revision: 1, files: [file(null, 0)] }))).toEqual([ACTIVITIES.filesNeeded(1)]);
  });

  it('activities with no rule of their own finish as they are', () => {
    for (const code of ['A6', 'A11', 'A25']) expect(finishProblems(input(code)), code).toEqual([]);
  });
});

describe('control decisions (spec 3 §4)', () => {
  it('A5.1 positive needs the date and the LU document; negative needs nothing', () => {
    expect(decisionProblems(input('A5.1'), false)).toEqual([ACTIVITIES.enterField('datum'), ACTIVITIES.filesNeeded(1)]);
    expect(decisionProblems(input('A5.1', { podaci: [d(DATA_KEYS.date, '2025-02-01')], files: [file()] }), false)).toEqual([]);
    expect(decisionProblems(input('A5.1'), true)).toEqual([]);
    // Restarted (version 1): the first round's document does not count.
    expect(decisionProblems(input('A5.1', { revision: 1, podaci: [d(DATA_KEYS.date, '2025-02-01')], files: [file()] }), false)).toEqual([
      ACTIVITIES.filesNeeded(1),
    ]);
  });

  it('A10.1 positive needs the date', () => {
    expect(decisionProblems(input('A10.1'), false)).toEqual([ACTIVITIES.enterField('datum')]);
    expect(decisionProblems(input('A10.1', { podaci: [d(DATA_KEYS.date, '2025-02-01')] }), false)).toEqual([]);
    expect(decisionProblems(input('A10.1'), true)).toEqual([]);
  });

  it('A6.1 positive needs holders or one file', () => {
    expect(decisionProblems(input('A6.1'), false)).toEqual([ACTIVITIES.filesNeeded(1)]);
    expect(decisionProblems(input('A6.1', { files: [file()] }), false)).toEqual([]);
    expect(decisionProblems(input('A6.1', { podaci: [d(DATA_KEYS.holders, 'h1')] }), false)).toEqual([]);
    expect(decisionProblems(input('A6.1'), true)).toEqual([]);
  });

  it.each(['A26.1', 'A27.1'])('%s needs its number for either answer', (code) => {
    expect(decisionProblems(input(code), false)).toEqual([ACTIVITIES.required]);
    expect(decisionProblems(input(code), true)).toEqual([ACTIVITIES.required]);
    expect(decisionProblems(input(code, { podaci: [d(DATA_KEYS.number, '42')] }), false)).toEqual([]);
  });

  it.each(['A4.1', 'A9.1', 'A14.1', 'A23.1', 'A24'])('%s is decided by its button alone', (code) => {
    expect(decisionProblems(input(code), false)).toEqual([]);
    expect(decisionProblems(input(code), true)).toEqual([]);
  });
});

describe('revisions', () => {
  it('counts sendings back and restarts', () => {
    expect(activityRevision({ returned: 0, version: 0 })).toBe(0);
    expect(activityRevision({ returned: 2, version: 1 })).toBe(3);
    expect(currentFiles({ files: [file(null, 0), file(null, 1)], returned: 1 })).toEqual([file(null, 1)]);
  });

  it('names why a change made on an older state no longer applies', () => {
    const inProgress = { status: 'U toku', revizija: 1 };
    expect(staleStateReason(inProgress, inProgress)).toBeNull();
    expect(staleStateReason({ status: 'Završena', revizija: 1 }, inProgress)).toBe(ACTIVITIES.finishedMeanwhile);
    expect(staleStateReason({ status: 'Završena', revizija: 2 }, inProgress)).toBe(ACTIVITIES.finishedMeanwhile);
    expect(staleStateReason({ status: 'U toku', revizija: 2 }, inProgress)).toBe(ACTIVITIES.newRevisionMeanwhile);
    expect(staleStateReason({ status: 'Završena', revizija: 2 }, { status: 'Završena', revizija: 1 })).toBe(
      ACTIVITIES.newRevisionMeanwhile,
    );
    // Reactivated by the Admin: same revision, in progress again.
    expect(staleStateReason({ status: 'U toku', revizija: 1 }, { status: 'Završena', revizija: 1 })).toBe(ACTIVITIES.staleVersion);
    // Started since a comment was written on it: still the same activity and revision.
    expect(staleStateReason({ status: 'U toku', revizija: 0 }, { status: 'Nije započeta', revizija: 0 })).toBeNull();
  });

  it("marks a revision's file names before the extension, once", () => {
    expect(revisionFileName('IDR.pdf', 0)).toBe('IDR.pdf');
    expect(revisionFileName('IDR.pdf', 1)).toBe('IDR_revizija=1.pdf');
    expect(revisionFileName('Idejno rešenje v2.final.docx', 2)).toBe('Idejno rešenje v2.final_revizija=2.docx');
    expect(revisionFileName('IDR_revizija=1.pdf', 2)).toBe('IDR_revizija=2.pdf');
    expect(revisionFileName('bez-ekstenzije', 1)).toBe('bez-ekstenzije_revizija=1');
    expect(revisionFileName('.skriven', 1)).toBe('.skriven_revizija=1');
  });
});

describe('data items (spec 3 §5)', () => {
  const today = '2025-06-10';

  it('dates are real calendar days, never in the future', () => {
    expect(checkDataItem('A2', d('Datum', '2025-06-10'), today)).toEqual({ ok: true, vrednost: '2025-06-10' });
    expect(checkDataItem('A2', d('Datum', '2025-06-11'), today)).toEqual({ ok: false, field: 'Datum', message: ACTIVITIES.futureDate });
    expect(checkDataItem('A2', d('Datum', '2025-02-30'), today)).toMatchObject({ ok: false, message: ACTIVITIES.enterField('datum') });
    expect(checkDataItem('A10.1', d('Datum', '10.06.2025'), today)).toMatchObject({ ok: false });
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isFutureDate('2025-06-11', today)).toBe(true);
    expect(isFutureDate('2025-06-10', new Date(2025, 5, 10, 23, 59))).toBe(false);
  });

  it('amounts are read as typed and stored normalised; negatives are refused', () => {
    expect(parseAmount('1.234,5')).toBeNull();
    expect(parseAmount('1234,5')).toBe(1234.5);
    expect(parseAmount('12 500 RSD')).toBe(12500);
    expect(parseAmount('300 m')).toBe(300);
    expect(parseAmount('1\u00a0250,50 дин.')).toBe(1250.5);
    // Letters are not stripped into digits, and nothing absurd is read.
    expect(parseAmount('1e5')).toBeNull();
    expect(parseAmount('abc12')).toBeNull();
    expect(parseAmount('12abc')).toBeNull();
    expect(parseAmount('1,2,3')).toBeNull();
    expect(parseAmount('9'.repeat(400))).toBeNull();
    expect(parseAmount('1000000000001')).toBeNull();
    expect(parseAmount('1000000000000')).toBe(1e12);
    expect(checkDataItem('A2', d('RevidiranaDuzinaKlastera', '1520,75'), today)).toEqual({ ok: true, vrednost: '1520.75' });
    expect(checkDataItem('A2', d('RevidiranaVrednost', 'mnogo'), today)).toMatchObject({ ok: false, message: ACTIVITIES.validNumber });
    expect(checkDataItem('A17', { key: 'Broj', naziv: '', vrednost: '-3' }, today)).toMatchObject({
      ok: false,
      message: ACTIVITIES.numberFor('Dužina izgrađene trase (m)'),
    });
    expect(checkDataItem('A7', d('A7Taksa', '0', 'h1'), today)).toEqual({ ok: true, vrednost: '0' });
  });

  it("A3's answer is stored as the outcome", () => {
    expect(checkDataItem('A3', d('DaNe', 'Ne'), today)).toEqual({ ok: true, vrednost: 'Nije potrebna IOL' });
    expect(checkDataItem('A3', d('DaNe', 'Dobijena IOL'), today)).toEqual({ ok: true, vrednost: 'Dobijena IOL' });
    expect(checkDataItem('A3', d('DaNe', 'Možda'), today)).toMatchObject({ ok: false, message: ACTIVITIES.chooseOutcome });
  });

  it('additional fees: a name of 1–50 characters and a number', () => {
    const fee = (naziv: string, vrednost: string): DataItem => ({ key: 'DodatnaTaksa', naziv, vrednost });
    expect(checkDataItem('A4', fee('Republička taksa', '320,00'), today)).toEqual({ ok: true, vrednost: '320' });
    expect(checkDataItem('A4', fee(' ', '320'), today)).toEqual({ ok: false, field: 'naziv', message: ACTIVITIES.feeNameLength });
    expect(checkDataItem('A4', fee('x'.repeat(51), '320'), today)).toMatchObject({ ok: false, field: 'naziv' });
    expect(checkDataItem('A4', fee('Taksa', 'puno'), today)).toMatchObject({ ok: false, message: ACTIVITIES.mustBeNumber });
  });

  it('each code takes its own keys; the automatic ones none', () => {
    expect(allowedDataKeys('A1')).toEqual(['DuzinaTrase', 'DodatnaTaksa']);
    expect(allowedDataKeys('A6.1')).toContain('Ijos');
    expect(allowedDataKeys('A7')).not.toContain('Ijos');
    expect(allowedDataKeys('A4')).toEqual(['Datum', 'DodatnaTaksa']);
    expect(allowedDataKeys('A6')).toEqual([]);
    expect(allowedDataKeys('A11')).toEqual([]);
    for (const entry of ACTIVITY_CATALOGUE)
      expect(allowedDataKeys(entry.code).length > 0, entry.code).toBe(!['A6', 'A11'].includes(entry.code));
  });
});
