import { CODEBOOKS, COMMON } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { priorities } from '../../db/schema-clusters.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { PRIORITY_TEXTS } from './service.js';

const t = useTestApp();
const NO_ID = '00000000-0000-4000-8000-000000000000';

let adminToken: string;
let employeeToken: string;

beforeAll(async () => {
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db)).id }));
});

const post = (payload: object, token = adminToken) => t.call({ method: 'POST', url: '/api/priority', payload, token });

describe('priorities', () => {
  it('adds, lists by broj (employees read them), edits and deletes', async () => {
    const visok = (await post({ naziv: 'Visok', broj: 3 })).json();
    expect(visok).toEqual({ message: said(PRIORITY_TEXTS.created), priority: { _id: expect.any(String), naziv: 'Visok', broj: 3 } });
    const nizak = await post({ naziv: ' Nizak ', broj: '1' });
    expect(nizak.statusCode).toBe(201);
    await post({ naziv: 'Srednji', broj: 2 });
    const list = await t.call({ method: 'GET', url: '/api/priority', token: employeeToken });
    expect(list.statusCode).toBe(200);
    expect(list.json().priorities.map((p: { naziv: string; broj: number }) => [p.naziv, p.broj])).toEqual([
      ['Nizak', 1],
      ['Srednji', 2],
      ['Visok', 3],
    ]);

    const edited = await t.call({
      method: 'PATCH',
      url: `/api/priority/${visok.priority._id}`,
      payload: { naziv: 'Hitno', broj: 4 },
      token: adminToken,
    });
    expect(edited.json()).toEqual({ message: said(PRIORITY_TEXTS.edited), priority: { _id: visok.priority._id, naziv: 'Hitno', broj: 4 } });
    // Its own name is not "taken".
    const same = await t.call({
      method: 'PATCH',
      url: `/api/priority/${visok.priority._id}`,
      payload: { naziv: 'hitno', broj: 4 },
      token: adminToken,
    });
    expect(same.statusCode).toBe(200);

    const deleted = await t.call({ method: 'DELETE', url: `/api/priority/${visok.priority._id}`, token: adminToken });
    expect(deleted.json()).toEqual({ message: said(PRIORITY_TEXTS.deleted) });
    expect(await t.db.select().from(priorities).where(eq(priorities.id, visok.priority._id))).toEqual([]);
    expect((await t.call({ method: 'DELETE', url: `/api/priority/${visok.priority._id}`, token: adminToken })).statusCode).toBe(404);
  });

  it('requires naziv and broj with the codebook messages; broj a whole number ≥ 0', async () => {
    const before = (await t.db.select().from(priorities)).length;
    const cases: [object, string, string][] = [
      [{ broj: 1 }, 'naziv', CODEBOOKS.priorityNazivRequired],
      [{ naziv: '   ', broj: 1 }, 'naziv', CODEBOOKS.priorityNazivRequired],
      [{ naziv: 'Kritičan' }, 'broj', CODEBOOKS.priorityBrojRequired],
      [{ naziv: 'Kritičan', broj: '' }, 'broj', CODEBOOKS.priorityBrojRequired],
      [{ naziv: 'Kritičan', broj: '  ' }, 'broj', CODEBOOKS.priorityBrojRequired],
      [{ naziv: 'Kritičan', broj: null }, 'broj', CODEBOOKS.priorityBrojRequired],
      [{ naziv: 'Kritičan', broj: 'pet' }, 'broj', CODEBOOKS.priorityBrojRequired],
      [{ naziv: 'Kritičan', broj: 1.5 }, 'broj', CODEBOOKS.priorityBrojRequired],
      [{ naziv: 'Kritičan', broj: -1 }, 'broj', CODEBOOKS.numberMin],
    ];
    for (const [payload, field, message] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(payload)).toBe(said(message));
    }
    expect((await t.db.select().from(priorities)).length).toBe(before);
  });

  it('refuses a name already used (any case), a missing priority and non-admins', async () => {
    await post({ naziv: 'Blokirajući', broj: 9 });
    const dup = await post({ naziv: 'BLOKIRAJUĆI', broj: 10 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(said(PRIORITY_TEXTS.nameTaken));
    const missing = await t.call({ method: 'PATCH', url: `/api/priority/${NO_ID}`, payload: { naziv: 'X', broj: 1 }, token: adminToken });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(said(COMMON.notFound));
    expect((await post({ naziv: 'Y', broj: 1 }, employeeToken)).statusCode).toBe(403);
  });
});
