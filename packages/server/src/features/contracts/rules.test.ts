import { CONTRACTS } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { contracts } from '../../db/schema-clusters.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { multipartBody } from './testDocuments.js';

/** Issue 14: contract numbers, finish data and typed contracts without groups. */

const t = useTestApp();

let admin: string;
let izv: Awaited<ReturnType<typeof createGroup>>;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  izv = await createGroup(t.db, { type: 'IZVODJAC' });
});

const body = { naziv: 'Mreža Zlatibor', datumPocetka: '2026-01-10', rokTrajanja: 90 };
const create = (route: string, payload: object) => t.call({ method: 'POST', url: `/api/${route}`, token: admin, payload });
async function edit(route: string, id: string, fields: Record<string, string>) {
  return t.call({ method: 'POST', url: `/api/${route}/${route}/${id}`, token: admin, ...(await multipartBody(fields)) });
}

describe('contract numbers', () => {
  it('are unique within their kind, case and spaces aside; refused on broj with a Serbian message', async () => {
    expect((await create('contract', { ...body, broj: 'RN-14/2026' })).statusCode).toBe(201);
    for (const broj of ['RN-14/2026', 'rn-14/2026', ' RN-14 / 2026 ', 'Rn - 14/2026']) {
      const res = await create('contract', { ...body, broj });
      expect(res.statusCode, broj).toBe(409);
      expect(res.json()).toEqual({ message: CONTRACTS.numberTaken, errors: { broj: CONTRACTS.numberTaken } });
    }
    // Another kind may carry the same number.
    expect((await create('contractIzv', { ...body, broj: 'RN-14/2026', grupe: [izv.id] })).statusCode).toBe(201);
    expect((await create('contractIzv', { ...body, broj: 'rn-14/2026', grupe: [izv.id] })).statusCode).toBe(409);
    const rows = await t.db.select().from(contracts).where(eq(contracts.broj, 'RN-14/2026'));
    expect(rows.map((r) => r.kind).sort()).toEqual(['contract', 'contractIzv']);
  });

  it("compare a stored number's spaces and its letter s like any other (CI's flaky journey: a stamp with an 's')", async () => {
    expect((await create('contract', { ...body, broj: 'SRB-7 / 2026' })).statusCode).toBe(201);
    expect((await create('contract', { ...body, broj: 'ns-9 / 2026' })).statusCode).toBe(201);
    for (const broj of ['srb-7/2026', 'SRB - 7/2026', 'NS-9/2026', ' ns - 9 / 2026']) {
      expect((await create('contract', { ...body, broj })).statusCode, broj).toBe(409);
    }
    // Numbers that differ by an s are different numbers.
    expect((await create('contract', { ...body, broj: 'n-9/2026' })).statusCode).toBe(201);
  });

  it('two concurrent creates of one number: one wins', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => create('contractPro', { ...body, broj: 'PAR-1' })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });
});

describe('finish data (spec 2 §4)', () => {
  it("refuses 'Završen' without datumZavrsetka and an end before the start, on the field", async () => {
    const id = (await create('contract', { ...body, broj: 'FIN-1' })).json().document as string;
    const fields = { naziv: 'X', datumPocetka: '2026-01-10', rokTrajanja: '30' };
    const noDate = await edit('contract', id, { ...fields, status: 'Završen' });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json()).toEqual({ message: CONTRACTS.finishDateRequired, errors: { datumZavrsetka: CONTRACTS.finishDateRequired } });
    const empty = await edit('contract', id, { ...fields, status: 'Završen', datumZavrsetka: '' });
    expect(empty.json().errors).toEqual({ datumZavrsetka: CONTRACTS.finishDateRequired });
    const early = await edit('contract', id, { ...fields, status: 'Završen', datumZavrsetka: '2026-01-09' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ message: CONTRACTS.finishBeforeStart, errors: { datumZavrsetka: CONTRACTS.finishBeforeStart } });
    const [row] = await t.db.select().from(contracts).where(eq(contracts.id, id));
    expect(row).toMatchObject({ status: 'U toku', datumZavrsetka: null });
    // The start day itself is a valid end (and on time: green).
    const same = await edit('contract', id, { ...fields, status: 'Završen', datumZavrsetka: '2026-01-10' });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().contract).toMatchObject({ status: 'Završen', datumZavrsetka: '2026-01-10', boja: 'green' });
  });
});

describe('typed contracts without groups (docs/decisions.md)', () => {
  it('are created and edited without groups; groups given still have to fit the kind', async () => {
    for (const grupe of [undefined, []]) {
      const res = await create('contractNad', { ...body, broj: `BG-${grupe ? 'prazno' : 'bez'}`, ...(grupe && { grupe }) });
      expect(res.statusCode, res.body).toBe(201);
      const got = await t.call({ method: 'GET', url: `/api/contractNad/${res.json().document}`, token: admin });
      expect(got.json().contractNad.grupe).toEqual([]);
    }
    const id = (await create('contractIzv', { ...body, broj: 'BG-2', grupe: [izv.id] })).json().document as string;
    const cleared = await edit('contractIzv', id, { naziv: 'X', datumPocetka: '2026-01-10', rokTrajanja: '30', grupe: '[]' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().contract.grupe).toEqual([]);
  });
});
