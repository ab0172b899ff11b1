import { TOPICS } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import { createCluster, createContract, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import {
  adminToken,
  auditCount,
  type Cluster,
  call,
  leafToken,
  managerToken,
  open,
  otherToken,
  rootToken,
  setupTopics,
  t,
  topicRow,
  tree,
} from './topicsSetup.js';

setupTopics();

describe('who changes what (issue 12): edit/delete by the author group, close also by the responsible group', () => {
  let cluster: Cluster;
  let ministryAuthor: string;
  let ministryColleague: string;
  let supervision: string;
  let otherAllSeeing: string;
  let ministryManager: string;
  let foreignManager: string;
  const ministryGroup = { id: '' };

  beforeAll(async () => {
    const ministry = await createGroup(t.db, { naziv: 'Ministarstvo Dozvole', type: 'NARUCILAC', sveVideci: true });
    ministryGroup.id = ministry.id;
    const ministryUnit = await createGroup(t.db, {
      naziv: 'Ministarstvo Dozvole Sektor',
      type: 'NARUCILAC',
      parentId: ministry.id,
      sveVideci: true,
    });
    ministryAuthor = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: ministryUnit.id }));
    ministryColleague = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: ministryUnit.id }));
    ministryManager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: ministry.id }));
    const nadzor = await createGroup(t.db, { naziv: 'Nadzor Dozvole', type: 'NADZOR' });
    supervision = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nadzor.id }));
    const agency = await createGroup(t.db, { naziv: 'Agencija Dozvole', type: 'NARUCILAC', sveVideci: true });
    otherAllSeeing = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: agency.id }));
    foreignManager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: nadzor.id }));
    const contract = await createContract(t.db, { kind: 'contractNad', naziv: 'Nadzor Tara', groupIds: [nadzor.id] });
    cluster = await createCluster(t.db, { naziv: 'Tara Dozvole', groupIds: [tree.leaf.id], contract });
  });

  /** A topic of the ministry's sector handed to the contractor's team (leaf). */
  const ministryTopic = async (opis: string) => (await open(ministryAuthor, { locationId: cluster.id, odgovoran: tree.leaf.id, opis }))._id;
  const dozvole = async (token: string, id: string) => {
    const res = await call('GET', `/api/topic/${id}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.dozvole;
  };

  it('refuses a group that only sees the cluster: 403 with a Serbian message, nothing changed', async () => {
    const id = await ministryTopic('Tema ministarstva');
    const row = await topicRow(id);
    const before = await auditCount();
    for (const token of [supervision, otherAllSeeing, foreignManager]) {
      const edit = await call('PATCH', `/api/topic/${id}`, token, { odgovoran: tree.leaf.id, opis: 'Prepisano' });
      expect(edit.statusCode).toBe(403);
      expect(edit.json()).toEqual({ message: said(TOPICS.onlyAuthorGroup) });
      const del = await call('DELETE', `/api/topic/${id}`, token);
      expect(del.statusCode).toBe(403);
      expect(del.json()).toEqual({ message: said(TOPICS.onlyAuthorGroup) });
      const close = await call('PATCH', `/api/topic/${id}`, token, { status: 'zatvoren' });
      expect(close.statusCode).toBe(403);
      expect(close.json()).toEqual({ message: said(TOPICS.onlyCloser) });
      expect(await dozvole(token, id)).toEqual({ izmena: false, brisanje: false, zatvaranje: false });
    }
    expect(await topicRow(id)).toEqual(row);
    expect(await auditCount()).toBe(before);
    // a caller who does not see the cluster still gets 404 (root sees neither)
    expect((await call('PATCH', `/api/topic/${id}`, rootToken, { status: 'zatvoren' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/topic/${id}`, otherToken)).statusCode).toBe(404);
  });

  it('lets the author group (a colleague, a manager above it) edit and delete', async () => {
    const id = await ministryTopic('Za izmenu');
    expect(await dozvole(ministryColleague, id)).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    const edited = await call('PATCH', `/api/topic/${id}`, ministryColleague, { odgovoran: tree.leaf.id, opis: 'Izmenio kolega' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.dozvole).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    const byManager = await call('PATCH', `/api/topic/${id}`, ministryManager, { odgovoran: tree.leaf.id, opis: 'Izmenio rukovodilac' });
    expect(byManager.statusCode, byManager.body).toBe(200);
    expect((await call('DELETE', `/api/topic/${id}`, ministryManager)).statusCode).toBe(200);
    const second = await ministryTopic('Za brisanje');
    expect((await call('DELETE', `/api/topic/${second}`, ministryColleague)).statusCode).toBe(200);
    expect(await topicRow(second)).toBeUndefined();
  });

  it('lets the responsible group close, but neither edit nor delete', async () => {
    const id = await ministryTopic('Odgovorni zatvara');
    expect(await dozvole(leafToken, id)).toEqual({ izmena: false, brisanje: false, zatvaranje: true });
    expect(await dozvole(managerToken, id)).toEqual({ izmena: false, brisanje: false, zatvaranje: true });
    const edit = await call('PATCH', `/api/topic/${id}`, leafToken, { odgovoran: tree.leaf.id, opis: 'x' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().message).toBe(said(TOPICS.onlyAuthorGroup));
    expect((await call('DELETE', `/api/topic/${id}`, leafToken)).statusCode).toBe(403);
    const closed = await call('PATCH', `/api/topic/${id}`, leafToken, { status: 'zatvoren' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data.dozvole).toEqual({ izmena: false, brisanje: false, zatvaranje: true });
    // once handed over, the former responsible group may no longer close
    const handed = await ministryTopic('Predata');
    expect(
      (await call('POST', `/api/topic/${handed}/komentar`, leafToken, { tekst: 'Nadzoru', noviOdgovoran: ministryGroup.id })).statusCode,
    ).toBe(200);
    const late = await call('PATCH', `/api/topic/${handed}`, leafToken, { status: 'zatvoren' });
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toBe(said(TOPICS.onlyCloser));
    // ... while the author group still may (a commented topic can be closed)
    expect((await call('PATCH', `/api/topic/${handed}`, ministryAuthor, { status: 'zatvoren' })).statusCode).toBe(200);
  });

  it('lets the Admin do everything; a topic whose author is gone is the Admin’s to change', async () => {
    const id = await ministryTopic('Admin menja');
    expect(await dozvole(adminToken, id)).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    expect((await call('PATCH', `/api/topic/${id}`, adminToken, { odgovoran: tree.leaf.id, opis: 'Admin' })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/topic/${id}`, adminToken)).statusCode).toBe(200);
    const author = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id });
    const orphan = (await open(await tokenFor(t.ctx, author), { locationId: cluster.id, odgovoran: ministryGroup.id, opis: 'Sirotan' }))
      ._id;
    expect(await dozvole(leafToken, orphan)).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    await t.db.delete(users).where(eq(users.id, author.id));
    expect(await dozvole(leafToken, orphan)).toEqual({ izmena: false, brisanje: false, zatvaranje: false });
    expect((await call('DELETE', `/api/topic/${orphan}`, leafToken)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/topic/${orphan}`, adminToken)).statusCode).toBe(200);
  });

  it('lists the flags per row', async () => {
    const id = await ministryTopic('U listi');
    const row = async (token: string) => {
      const res = await call('GET', '/api/topic?limit=1000&q=u%20listi', token);
      return (res.json().data as { _id: string; dozvole: object }[]).find((x) => x._id === id)?.dozvole;
    };
    expect(await row(ministryColleague)).toEqual({ izmena: true, brisanje: true, zatvaranje: true });
    expect(await row(leafToken)).toEqual({ izmena: false, brisanje: false, zatvaranje: true });
    expect(await row(supervision)).toEqual({ izmena: false, brisanje: false, zatvaranje: false });
  });
});
