import { USERS } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { groups, groupTypes } from '../../db/schema.js';
import { createGroup, createUser, groupTypeId, tokenFor } from '../../seed/factories.js';

/** Issue 14: names people pick are unique with case and script folded (groups under one parent, group types). */

const t = useTestApp();
let admin: string;
let izvodjac: string;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  izvodjac = await groupTypeId(t.db, 'IZVODJAC');
});

const call = (method: 'POST' | 'PATCH', url: string, payload: object) => t.call({ method, url, payload, token: admin });

describe('group names', () => {
  it('are unique among the groups of one parent, case and script folded; refused on naziv', async () => {
    const parent = await createGroup(t.db, { naziv: 'Mreže Srbije', type: 'IZVODJAC' });
    const first = await call('POST', '/api/group/create', {
      nadredjenaId: parent.id,
      naziv: 'Tim Niš',
      kratakNaziv: 'TN',
      sveVideci: false,
    });
    expect(first.statusCode, first.body).toBe(201);
    for (const naziv of ['ТИМ НИШ', 'tim nis', 'Tim Nis']) {
      const res = await call('POST', '/api/group/create', { nadredjenaId: parent.id, naziv, kratakNaziv: 'X', sveVideci: false });
      expect(res.statusCode, naziv).toBe(409);
      expect(res.json()).toEqual({ message: said(USERS.groupNameTakenInParent), errors: { naziv: said(USERS.groupNameTakenInParent) } });
    }
    // The Cyrillic form of a name counts as the name.
    const byCyrillic = await call('POST', '/api/group/create', {
      nadredjenaId: parent.id,
      naziv: 'Drugi tim',
      cirilica: 'Тим Ниш',
      kratakNaziv: 'DT',
      sveVideci: false,
    });
    expect(byCyrillic.statusCode).toBe(409);
    // Under another parent the folded name is free (the exact name stays unique everywhere, as before).
    const other = await createGroup(t.db, { naziv: 'Kablovi Jug', type: 'IZVODJAC' });
    const elsewhere = await call('POST', '/api/group/create', {
      nadredjenaId: other.id,
      naziv: 'Тим Ниш',
      kratakNaziv: 'TN2',
      sveVideci: false,
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    const roots = await call('POST', '/api/group/create', { naziv: 'МРЕЖЕ СРБИЈЕ', kratakNaziv: 'MS', tip: izvodjac, sveVideci: false });
    expect(roots.statusCode).toBe(409);
  });

  it('an edit may keep its own name and refuses a sibling’s', async () => {
    const parent = await createGroup(t.db, { naziv: 'Optika Sever', type: 'IZVODJAC' });
    const a = await createGroup(t.db, { naziv: 'Ekipa Subotica', parentId: parent.id, type: 'IZVODJAC' });
    await createGroup(t.db, { naziv: 'Ekipa Sombor', parentId: parent.id, type: 'IZVODJAC' });
    const same = await call('PATCH', `/api/group/${a.id}`, { naziv: 'EKIPA SUBOTICA', kratakNaziv: 'ES', sveVideci: false });
    expect(same.statusCode, same.body).toBe(200);
    const taken = await call('PATCH', `/api/group/${a.id}`, { naziv: 'Екипа Сомбор', kratakNaziv: 'ES', sveVideci: false });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ naziv: said(USERS.groupNameTakenInParent) });
    const [row] = await t.db.select().from(groups).where(eq(groups.id, a.id));
    expect(row?.naziv).toBe('EKIPA SUBOTICA');
  });
});

describe('group type names', () => {
  it('are unique with case and script folded', async () => {
    const first = await call('POST', '/api/types', { naziv: 'Održavanje', kratakNaziv: 'ODR' });
    expect(first.statusCode, first.body).toBe(201);
    for (const naziv of ['ОДРЖАВАЊЕ', 'odrzavanje']) {
      const res = await call('POST', '/api/types', { naziv, kratakNaziv: 'O' });
      expect(res.statusCode, naziv).toBe(409);
      expect(res.json()).toEqual({ message: said(USERS.typeNameTaken), errors: { naziv: said(USERS.typeNameTaken) } });
    }
    // A built-in type's name too.
    const builtin = await call('POST', '/api/types', { naziv: 'ИЗВОЂАЧ', kratakNaziv: 'I' });
    expect(builtin.statusCode).toBe(409);
    const other = await call('POST', '/api/types', { naziv: 'Geodezija', kratakNaziv: 'GEO' });
    const rename = await call('PATCH', `/api/types/${other.json().type._id}`, { naziv: 'Održavanje', kratakNaziv: 'GEO' });
    expect(rename.statusCode).toBe(409);
    expect((await t.db.select().from(groupTypes).where(eq(groupTypes.naziv, 'Geodezija'))).length).toBe(1);
  });
});
