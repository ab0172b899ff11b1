import { COMMON, DEFAULT_GROUP_TYPES, USERS } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { groupTypes } from '../../db/schema.js';
import { createGroup, createGroupType, createUser, groupTypeId, tokenFor } from '../../seed/factories.js';
import { TYPE_TEXTS } from './service.js';

const t = useTestApp();
const NO_ID = '00000000-0000-4000-8000-000000000000';

let adminToken: string;
let employeeToken: string;

beforeAll(async () => {
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db)).id }));
});

async function typeRows() {
  return t.db.select().from(groupTypes);
}

describe('GET /api/types', () => {
  it('lists the built-in types first, in their order, with their codes; employees read them too', async () => {
    await createGroupType(t.db, { naziv: 'Agencija' });
    const res = await t.call({ method: 'GET', url: '/api/types', token: employeeToken });
    expect(res.statusCode).toBe(200);
    const { types } = res.json();
    expect(types.slice(0, 5).map((x: { code: string }) => x.code)).toEqual(DEFAULT_GROUP_TYPES.map((d) => d.code));
    expect(types[0]).toEqual({ _id: await groupTypeId(t.db, 'IZVODJAC'), naziv: 'Izvođač', kratakNaziv: 'IZV', code: 'IZVODJAC' });
    expect(types.at(-1)).toMatchObject({ naziv: 'Agencija', code: null });
  });
});

describe('POST, PATCH and DELETE /api/types', () => {
  it('adds, renames and deletes a type of the codebook', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/types',
      payload: { naziv: 'Konsultant', kratakNaziv: 'KON' },
      token: adminToken,
    });
    expect(created.statusCode).toBe(201);
    const { type, message } = created.json();
    expect(message).toBe(said(TYPE_TEXTS.created));
    expect(type).toEqual({ _id: expect.any(String), naziv: 'Konsultant', kratakNaziv: 'KON', code: null });
    const edited = await t.call({
      method: 'PATCH',
      url: `/api/types/${type._id}`,
      payload: { naziv: 'Konsultant RS', kratakNaziv: 'KRS' },
      token: adminToken,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toEqual({
      message: said(TYPE_TEXTS.edited),
      type: { _id: type._id, naziv: 'Konsultant RS', kratakNaziv: 'KRS', code: null },
    });
    const deleted = await t.call({ method: 'DELETE', url: `/api/types/${type._id}`, token: adminToken });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: said(TYPE_TEXTS.deleted) });
    expect(await t.db.select().from(groupTypes).where(eq(groupTypes.id, type._id))).toEqual([]);
  });

  it('renames a built-in type keeping its code', async () => {
    const id = await groupTypeId(t.db, 'NADZOR');
    const res = await t.call({
      method: 'PATCH',
      url: `/api/types/${id}`,
      payload: { naziv: 'Stručni nadzor', kratakNaziv: 'SN' },
      token: adminToken,
    });
    expect(res.json().type).toEqual({ _id: id, naziv: 'Stručni nadzor', kratakNaziv: 'SN', code: 'NADZOR' });
  });

  it('keeps built-in types and types in use', async () => {
    const builtin = await t.call({ method: 'DELETE', url: `/api/types/${await groupTypeId(t.db, 'PIU_TA')}`, token: adminToken });
    expect(builtin.statusCode).toBe(409);
    expect(builtin.json().message).toBe(said(USERS.typeBuiltin));
    const used = await createGroupType(t.db, { naziv: 'Korišćen tip' });
    const g = await createGroup(t.db);
    await t.call({
      method: 'PATCH',
      url: `/api/group/${g.id}`,
      payload: { naziv: g.naziv, kratakNaziv: g.kratakNaziv, tip: used.id },
      token: adminToken,
    });
    const inUse = await t.call({ method: 'DELETE', url: `/api/types/${used.id}`, token: adminToken });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe(said(USERS.typeInUse));
    expect(await t.db.select().from(groupTypes).where(eq(groupTypes.id, used.id))).toHaveLength(1);
  });

  it('refuses bad input, taken names and unknown ids, changing nothing', async () => {
    const before = await typeRows();
    const cases: [string, string, Record<string, unknown> | undefined, number, string][] = [
      ['POST', '/api/types', { kratakNaziv: 'X' }, 400, USERS.typeNazivRequired],
      ['POST', '/api/types', { naziv: 'X' }, 400, USERS.typeKratakRequired],
      ['POST', '/api/types', { naziv: ' ', kratakNaziv: 'X' }, 400, USERS.typeNazivRequired],
      ['POST', '/api/types', { naziv: ['X'], kratakNaziv: 1 }, 400, USERS.typeNazivRequired],
      ['POST', '/api/types', { naziv: 'izvođač', kratakNaziv: 'X' }, 409, TYPE_TEXTS.nameTaken],
      ['PATCH', `/api/types/${await groupTypeId(t.db, 'PROJEKTANT')}`, { naziv: 'NARUČILAC', kratakNaziv: 'X' }, 409, TYPE_TEXTS.nameTaken],
      ['PATCH', `/api/types/${NO_ID}`, { naziv: 'Novo', kratakNaziv: 'N' }, 404, COMMON.notFound],
      ['DELETE', `/api/types/${NO_ID}`, undefined, 404, COMMON.notFound],
      ['DELETE', '/api/types/abc', undefined, 400, COMMON.notFound],
    ];
    for (const [method, url, payload, status, text] of cases) {
      const res = await t.call({ method: method as 'POST', url, ...(payload && { payload }), token: adminToken });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(status);
      expect(res.json().message).toBe(said(text));
    }
    expect(await typeRows()).toEqual(before);
    expect(
      (await t.call({ method: 'POST', url: '/api/types', payload: { naziv: 'A', kratakNaziv: 'A' }, token: employeeToken })).statusCode,
    ).toBe(403);
  });
});
