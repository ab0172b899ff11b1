import { describe, expect, it } from 'vitest';
import { CONTRACTS } from '../messages/clusters.js';
import { contractEditSchema } from './clusters.js';

/** Issue 14: spec 2 §4's finish data (the edit form and the server share this schema). */
describe('contractEditSchema: finish data', () => {
  const fields = { naziv: 'Ugovor', datumPocetka: '2026-03-01', rokTrajanja: '30' };
  const errors = (value: object) => {
    const r = contractEditSchema.safeParse(value);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it("'Završen' needs datumZavrsetka", () => {
    for (const datumZavrsetka of [undefined, '', null]) {
      expect(errors({ ...fields, status: 'Završen', datumZavrsetka })).toEqual({ datumZavrsetka: CONTRACTS.finishDateRequired });
    }
  });

  it('the end is not before the start', () => {
    expect(errors({ ...fields, status: 'Završen', datumZavrsetka: '2026-02-28' })).toEqual({ datumZavrsetka: CONTRACTS.finishBeforeStart });
    expect(errors({ ...fields, status: 'Završen', datumZavrsetka: '2026-03-01' })).toEqual({});
    expect(errors({ ...fields, status: 'Završen', datumZavrsetka: '2027-01-01' })).toEqual({});
  });

  it('in progress needs no end date', () => {
    expect(errors({ ...fields, status: 'U toku', datumZavrsetka: '' })).toEqual({});
    expect(errors(fields)).toEqual({});
  });
});
