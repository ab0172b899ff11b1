import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { groups } from '../../db/schema.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { adminToken, ids, izvodjac, managerToken, NO_ID, reservedId, setupGroups, t, tree } from './groupsSetup.js';

/** Reading groups: the list, one group, and the lists split by sveVideci, each within the caller's scope. */
setupGroups();

describe('GET /api/group', () => {
  it('lists every group but the reserved one to an Admin, by naziv, with type and parent (the detail: children and members)', async () => {
    await createUser(t.db, { groupId: tree.leaf.id });
    const res = await t.call({ method: 'GET', url: '/api/group?page=1&limit=50000', token: adminToken });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ids(body.groups)).not.toContain(reservedId);
    expect(body.groups.map((g: { naziv: string }) => g.naziv)).not.toContain('Admin');
    expect(body.totalResults).toBe(body.groups.length);
    const names = body.groups.map((g: { naziv: string }) => g.naziv);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
    const mid = body.groups.find((g: { _id: string }) => g._id === tree.mid.id);
    expect(mid).toEqual({
      _id: tree.mid.id,
      naziv: tree.mid.naziv,
      kratakNaziv: tree.mid.kratakNaziv,
      tip: 'Izvođač',
      tipKod: 'IZVODJAC',
      tipId: izvodjac,
      sveVideci: false,
      nadredjenaGrupa: { _id: tree.root.id, naziv: tree.root.naziv },
    });
    // The Cyrillic name, the children and the member count are the detail's.
    const detail = (await t.call({ method: 'GET', url: `/api/group/${tree.mid.id}`, token: adminToken })).json().group;
    expect(detail).toEqual({
      ...mid,
      cirilica: tree.mid.cirilica,
      podredjeneGrupe: [{ _id: tree.leaf.id, naziv: tree.leaf.naziv }],
      brojClanova: 1,
    });
  });

  it('lists only their subtree to a Rukovodilac, without the group above it', async () => {
    const body = (await t.call({ method: 'GET', url: '/api/group?limit=1000', token: managerToken })).json();
    expect(new Set(ids(body.groups))).toEqual(new Set([tree.mid.id, tree.leaf.id]));
    expect(body.totalResults).toBe(2);
    expect(body.groups.find((g: { _id: string }) => g._id === tree.mid.id).nadredjenaGrupa).toBeNull();
  });

  it('clamps huge limits and refuses non-numbers', async () => {
    expect((await t.call({ method: 'GET', url: '/api/group?limit=10000000', token: adminToken })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/group?limit=sve', token: adminToken })).statusCode).toBe(400);
  });
});

describe('GET /api/group/:id', () => {
  it('gives one group', async () => {
    const res = await t.call({ method: 'GET', url: `/api/group/${tree.leaf.id}`, token: managerToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().group).toMatchObject({ _id: tree.leaf.id, nadredjenaGrupa: { _id: tree.mid.id }, podredjeneGrupe: [] });
  });

  it('hides the reserved group and groups outside the scope exactly like missing ones', async () => {
    const missing = await t.call({ method: 'GET', url: `/api/group/${NO_ID}`, token: managerToken });
    expect(missing.statusCode).toBe(404);
    for (const id of [tree.root.id, tree.other.id, reservedId]) {
      const res = await t.call({ method: 'GET', url: `/api/group/${id}`, token: managerToken });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(missing.body);
    }
    expect((await t.call({ method: 'GET', url: `/api/group/${reservedId}`, token: adminToken })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/group/nije-id', token: adminToken })).statusCode).toBe(400);
  });
});

describe('GET /api/group/sve-videci/true and /false', () => {
  it('splits the groups by sveVideci, never listing the reserved one, within the scope', async () => {
    const seeing = await createGroup(t.db, { naziv: 'Ministarstvo Grupe test', type: 'NARUCILAC', sveVideci: true });
    const yes = (await t.call({ method: 'GET', url: '/api/group/sve-videci/true', token: adminToken })).json();
    const no = (await t.call({ method: 'GET', url: '/api/group/sve-videci/false', token: adminToken })).json();
    expect(ids(yes.groups)).toContain(seeing.id);
    expect(yes.groups.every((g: { sveVideci: boolean }) => g.sveVideci)).toBe(true);
    expect(ids(no.groups)).toEqual(expect.arrayContaining([tree.root.id, tree.other.id]));
    expect(ids(no.groups)).not.toContain(seeing.id);
    expect(ids([...yes.groups, ...no.groups])).not.toContain(reservedId);
    const mine = (await t.call({ method: 'GET', url: '/api/group/sve-videci/false', token: managerToken })).json();
    expect(new Set(ids(mine.groups))).toEqual(new Set([tree.mid.id, tree.leaf.id]));
    // The groups list's rows, in its order, nothing else: the whole list split in two.
    for (const [token, answers] of [
      [adminToken, [yes, no]],
      [managerToken, [(await t.call({ method: 'GET', url: '/api/group/sve-videci/true', token: managerToken })).json(), mine]],
    ] as const) {
      const whole = (await t.call({ method: 'GET', url: '/api/group?page=1&limit=50000', token })).json();
      for (const [answer, flag] of [
        [answers[0], true],
        [answers[1], false],
      ] as const) {
        expect(Object.keys(answer)).toEqual(['groups']);
        expect(answer.groups).toEqual(whole.groups.filter((g: { sveVideci: boolean }) => g.sveVideci === flag));
      }
    }
    // A Zaposleni (the reports hub reads these choices) gets the groups of their own view: their group.
    const employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    const employeeNo = await t.call({ method: 'GET', url: '/api/group/sve-videci/false', token: employeeToken });
    expect(employeeNo.statusCode).toBe(200);
    expect(ids(employeeNo.json().groups)).toEqual([tree.leaf.id]);
    expect((await t.call({ method: 'GET', url: '/api/group/sve-videci/true', token: employeeToken })).json().groups).toEqual([]);
    // Kept by the groups' version: a group made to see everything moves from one list to the other.
    await t.db.update(groups).set({ sveVideci: true }).where(eq(groups.id, tree.other.id));
    const moved = (await t.call({ method: 'GET', url: '/api/group/sve-videci/true', token: adminToken })).json();
    expect(ids(moved.groups)).toContain(tree.other.id);
    const left = (await t.call({ method: 'GET', url: '/api/group/sve-videci/false', token: adminToken })).json();
    expect(ids(left.groups)).not.toContain(tree.other.id);
  });
});
