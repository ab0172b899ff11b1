import { COMMON, DATA_KEYS, IJO } from '@trasa/domain';
import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activityOf, addHolderFile, setActivityData } from '../../../test/activityData.js';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { ijoHolders } from '../../db/schema-activities.js';
import { createCluster, createGroup, createUser, tokenFor } from '../../seed/factories.js';

const t = useTestApp();
const NO_ID = '00000000-0000-4000-8000-000000000000';

let adminToken: string;
let piuToken: string;
let piuEmail: string;
let employeeToken: string;
let managerToken: string;

beforeAll(async () => {
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  const piu = await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db, { type: 'PIU_TA', cirilica: 'ПИУ тим' })).id });
  piuEmail = piu.email;
  piuToken = await tokenFor(t.ctx, piu);
  employeeToken = await tokenFor(
    t.ctx,
    await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db, { type: 'NARUCILAC' })).id }),
  );
  managerToken = await tokenFor(
    t.ctx,
    await createUser(t.db, { role: 'Rukovodilac', groupId: (await createGroup(t.db, { type: 'PIU_TA' })).id }),
  );
});

const post = (payload: object, token = adminToken) => t.call({ method: 'POST', url: '/api/ijo', payload, token });
const patch = (id: string, payload: object, token = adminToken) => t.call({ method: 'PATCH', url: `/api/ijo/${id}`, payload, token });
const remove = (id: string, token = adminToken) => t.call({ method: 'DELETE', url: `/api/ijo/${id}`, token });
const names = async (token = adminToken) =>
  (await t.call({ method: 'GET', url: '/api/ijo', token })).json().ijos.map((i: { naziv: string }) => i.naziv);
const newestLog = async () => (await t.db.select().from(auditLogs).orderBy(desc(auditLogs.createdAt)).limit(1))[0];

describe('IJO holders', () => {
  it('adds (trimmed, Izvođač by default), lists by name for all staff, edits and deletes, each logged', async () => {
    const created = await post({ naziv: '  Srbijagas a.d. ' });
    expect(created.statusCode).toBe(201);
    const { ijo } = created.json();
    expect(created.json()).toEqual({
      message: IJO.created,
      ijo: { _id: expect.any(String), naziv: 'Srbijagas a.d.', odgovoran: 'Izvođač' },
    });
    expect((await newestLog())?.message).toContain('je dodao IJO Srbijagas a.d. (Izvođač)');
    await post({ naziv: 'Čistoća JKP', odgovoran: 'Naručilac' });
    await post({ naziv: 'Elektrodistribucija Srbije d.o.o.' });
    // Serbian alphabet order: C … Č … E … S (Č after C, not after Z).
    for (const token of [adminToken, piuToken, employeeToken, managerToken]) {
      expect(await names(token)).toEqual(expect.arrayContaining(['Čistoća JKP', 'Elektrodistribucija Srbije d.o.o.', 'Srbijagas a.d.']));
    }
    const listed = await names();
    expect(listed.indexOf('Čistoća JKP')).toBeLessThan(listed.indexOf('Elektrodistribucija Srbije d.o.o.'));

    const edited = await patch(ijo._id, { naziv: 'Srbijagas', odgovoran: 'Naručilac' });
    expect(edited.json()).toEqual({ message: said(IJO.edited), ijo: { _id: ijo._id, naziv: 'Srbijagas', odgovoran: 'Naručilac' } });
    expect((await newestLog())?.message).toContain('je izmenio IJO Srbijagas a.d. u Srbijagas (Naručilac)');
    // Its own name (another case) is not "taken".
    expect((await patch(ijo._id, { naziv: 'SRBIJAGAS', odgovoran: 'Naručilac' })).statusCode).toBe(200);

    const deleted = await remove(ijo._id);
    expect(deleted.json()).toEqual({ message: said(IJO.deleted) });
    expect((await newestLog())?.message).toContain('je obrisao IJO SRBIJAGAS');
    expect(await t.db.select().from(ijoHolders).where(eq(ijoHolders.id, ijo._id))).toEqual([]);
    expect((await remove(ijo._id)).statusCode).toBe(404);
    expect((await patch(NO_ID, { naziv: 'Niko' })).statusCode).toBe(404);
  });

  it('refuses an empty name, a wrong payer and a name taken in any case or script', async () => {
    const empty = await post({ naziv: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: said(IJO.nameRequired), errors: { naziv: said(IJO.nameRequired) } });
    expect((await post({})).json().errors.naziv).toBe(said(IJO.nameRequired));
    const payer = await post({ naziv: 'Telekom Srbija a.d.', odgovoran: 'Nadzor' });
    expect(payer.statusCode).toBe(400);
    expect(payer.json().errors.odgovoran).toBe(said(IJO.odgovoranInvalid));

    expect((await post({ naziv: 'JP „Putevi Srbije“' })).statusCode).toBe(201);
    for (const taken of ['jp „putevi srbije“', 'ЈП „Путеви Србије“', 'JP „PUTEVI SRBIJE“', 'jp putevi srbije', 'J.P. Putevi-Srbije']) {
      const res = await post({ naziv: taken });
      expect(res.statusCode, taken).toBe(409);
      expect(res.json()).toEqual({ message: said(IJO.nameTaken), errors: { naziv: said(IJO.nameTaken) } });
    }
    const other = (await post({ naziv: 'Srbijašume' })).json().ijo;
    const renamed = await patch(other._id, { naziv: 'ЈП „ПУТЕВИ СРБИЈЕ“' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().message).toBe(said(IJO.nameTaken));
  });

  it('lets the Admin and an employee of a ПИУ ТА group write, nobody else (403)', async () => {
    const byPiu = await post({ naziv: 'Zavod za zaštitu prirode Srbije' }, piuToken);
    expect(byPiu.statusCode).toBe(201);
    const log = await newestLog();
    expect(log).toMatchObject({ groupCirilica: 'ПИУ тим' });
    expect(log?.message).toContain(`Korisnik ${piuEmail} je dodao IJO`);
    const id = byPiu.json().ijo._id;
    expect((await patch(id, { naziv: 'Zavod za zaštitu prirode', odgovoran: 'Izvođač' }, piuToken)).statusCode).toBe(200);

    for (const token of [employeeToken, managerToken]) {
      const refused = await post({ naziv: 'Tuđi IJO' }, token);
      expect(refused.statusCode).toBe(403);
      expect((await patch(id, { naziv: 'Tuđi IJO' }, token)).statusCode).toBe(403);
      expect((await remove(id, token)).statusCode).toBe(403);
    }
    expect((await post({ naziv: 'Tuđi IJO' }, employeeToken)).json().message).toBe(said(IJO.notAllowed));
    expect((await post({ naziv: 'Tuđi IJO' }, managerToken)).json().message).toBe(said(COMMON.forbidden));
    expect(await names()).not.toContain('Tuđi IJO');
    expect((await remove(id, piuToken)).statusCode).toBe(200);
  });

  it('keeps a holder that activities use, naming how many clusters', async () => {
    const holder = (await post({ naziv: 'Infrastruktura železnice Srbije a.d.' })).json().ijo;
    const other = (await post({ naziv: 'MUP – Sektor za vanredne situacije' })).json().ijo;
    const first = await createCluster(t.db);
    const second = await createCluster(t.db);
    const third = await createCluster(t.db);
    // A6.1 of the first cluster chose it among others; A7 of the second has its fee; a file of the third.
    await setActivityData(t.db, (await activityOf(t.db, first.id, 'A6.1')).id, [
      { key: DATA_KEYS.holders, naziv: 'IJO', vrednost: `${other._id},${holder._id}` },
    ]);
    await setActivityData(t.db, (await activityOf(t.db, second.id, 'A7')).id, [
      { key: DATA_KEYS.a7Fee, naziv: holder.naziv, vrednost: '1200', ref: holder._id },
    ]);
    const res = await remove(holder._id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(IJO.inUse('Infrastruktura železnice Srbije a.d.', 2));
    expect(IJO.inUse('X', 1)).toBe('ИЈО „X“ се користи на 1 кластеру и не може се обрисати.');
    expect(IJO.inUse('X', 21)).toContain('на 21 кластеру');
    expect(IJO.inUse('X', 11)).toContain('на 11 кластера');

    await addHolderFile(t.db, (await activityOf(t.db, third.id, 'A7')).id, holder._id);
    expect((await remove(holder._id)).json().message).toBe(IJO.inUse('Infrastruktura železnice Srbije a.d.', 3));
    // The other holder is named on one cluster; a holder named nowhere goes.
    expect((await remove(other._id)).json().message).toContain(said('на 1 кластеру'));
    const free = (await post({ naziv: 'Zavod za zaštitu spomenika kulture' })).json().ijo;
    expect((await remove(free._id)).statusCode).toBe(200);
  });
});
