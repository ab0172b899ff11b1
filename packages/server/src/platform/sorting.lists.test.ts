import { COMMON } from '@trasa/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { said } from '../../test/harness.js';
import { activityComments } from '../db/schema-activities.js';
import { createCluster, createContract, createGroup, createSettlement, createUser, setActivityState } from '../seed/factories.js';
import { adminToken, get, orderIn, SERBIAN, SHUFFLED, setupSorting, t } from './sortingSetup.js';

setupSorting();
describe('users lists', () => {
  beforeAll(async () => {
    const group = await createGroup(t.db, { naziv: 'Sortirana grupa' });
    for (const prezime of SHUFFLED) await createUser(t.db, { ime: 'Sortko', prezime, groupId: group.id });
  });

  it('GET /api/user sorts by prezime in Serbian order, up and down', async () => {
    const up = await get('/api/user?limit=50000&sort=prezime&order=asc');
    expect(up.status).toBe(200);
    expect(
      orderIn(
        up.body.users.map((u: { prezime: string }) => u.prezime),
        SERBIAN,
      ),
    ).toEqual([...SERBIAN]);
    const down = await get('/api/user?limit=50000&sort=prezime&order=desc');
    expect(
      orderIn(
        down.body.users.map((u: { prezime: string }) => u.prezime),
        SERBIAN,
      ),
    ).toEqual([...SERBIAN].reverse());
  });

  it('GET /api/search/user sorts the matches, and pages follow the same order', async () => {
    const all = await get('/api/search/user?eng=sortko&srb=sortko&sort=prezime&order=desc&limit=10');
    expect(all.body.users.map((u: { prezime: string }) => u.prezime)).toEqual([...SERBIAN].reverse());
    const second = await get('/api/search/user?eng=sortko&srb=sortko&sort=prezime&order=desc&limit=2&page=2');
    expect(second.body.users.map((u: { prezime: string }) => u.prezime)).toEqual([SERBIAN[2], SERBIAN[1]]);
  });

  it('without sort keeps the default order (prezime, ime)', async () => {
    const res = await get('/api/search/user?eng=sortko&srb=sortko');
    expect(res.body.users.map((u: { prezime: string }) => u.prezime)).toEqual([...SERBIAN]);
  });

  it('sorts by a joined column (grupa) and a flag (status) without an error', async () => {
    for (const sort of ['grupa', 'rola', 'status', 'emailPotvrdjen', 'imePrezime', 'email', 'ime']) {
      const res = await get(`/api/user?sort=${sort}&order=desc`);
      expect(res.status, sort).toBe(200);
    }
    const guests = await get('/api/user/guests?sort=email&order=desc');
    expect(guests.status).toBe(200);
  });

  it('refuses an unknown column or direction with 400 and the message', async () => {
    for (const url of [
      '/api/user?sort=lozinka',
      '/api/user?sort=prezime&order=up',
      '/api/user/guests?sort=passwordHash',
      '/api/search/user?eng=a&sort=id;drop table users',
      '/api/user?sort=__proto__',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toBe(said(COMMON.badSort));
    }
  });
});

describe('groups', () => {
  beforeAll(async () => {
    for (const naziv of SHUFFLED) await createGroup(t.db, { naziv: `${naziv} Qgrp` });
  });

  it('GET /api/search/group and /api/group sort by naziv in Serbian order', async () => {
    const names = SERBIAN.map((n) => `${n} Qgrp`);
    const down = await get('/api/search/group?eng=qgrp&srb=qgrp&sort=naziv&order=desc');
    expect(down.status).toBe(200);
    expect(down.body.groups.map((g: { naziv: string }) => g.naziv)).toEqual([...names].reverse());
    const up = await get('/api/group?limit=50000&sort=naziv&order=asc');
    expect(
      orderIn(
        up.body.groups.map((g: { naziv: string }) => g.naziv),
        names,
      ),
    ).toEqual(names);
    for (const sort of ['kratakNaziv', 'tip', 'nadredjenaGrupa', 'sveVideci'])
      expect((await get(`/api/group?sort=${sort}`)).status, sort).toBe(200);
    const bad = await get('/api/group?sort=naziv&order=DESC');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});

describe('settlements', () => {
  beforeAll(async () => {
    let n = 0;
    for (const naziv of SHUFFLED) await createSettlement(t.db, { naziv: `${naziv} Qnas`, brojSkola: ++n });
  });

  it('GET /api/search/naselje sorts by naziv (Serbian order) and by a number', async () => {
    const names = SERBIAN.map((n) => `${n} Qnas`);
    const up = await get('/api/search/naselje?eng=qnas&srb=qnas&sort=naziv&order=asc');
    expect(up.status).toBe(200);
    expect(up.body.naselja.map((s: { naziv: string }) => s.naziv)).toEqual(names);
    const byCount = await get('/api/search/naselje?eng=qnas&srb=qnas&sort=brojSkola&order=desc');
    expect(byCount.body.naselja.map((s: { brojSkola: number }) => s.brojSkola)).toEqual([5, 4, 3, 2, 1]);
    const list = await get('/api/naselje?sort=naziv&order=desc');
    expect(
      orderIn(
        list.body.naselja.map((s: { naziv: string }) => s.naziv),
        names,
      ),
    ).toEqual([...names].reverse());
    const bad = await get('/api/naselje?sort=opstine');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});

describe('clusters', () => {
  beforeAll(async () => {
    const group = await createGroup(t.db, { naziv: 'Odgovorna Qkl' });
    for (const naziv of SHUFFLED) await createCluster(t.db, { naziv: `${naziv} Qkl`, groupIds: [group.id] });
  });

  it('GET /api/location and /api/search/location sort by naziv in Serbian order', async () => {
    const names = SERBIAN.map((n) => `${n} Qkl`);
    const down = await get('/api/search/location?eng=qkl&srb=qkl&sort=naziv&order=desc');
    expect(down.status).toBe(200);
    expect(down.body.locations.map((l: { naziv: string }) => l.naziv)).toEqual([...names].reverse());
    const up = await get('/api/location?limit=100&sort=naziv&order=asc');
    expect(
      orderIn(
        up.body.locations.map((l: { naziv: string }) => l.naziv),
        names,
      ),
    ).toEqual(names);
    for (const sort of ['odgovoran', 'status', 'ugovor'])
      expect((await get(`/api/location?sort=${sort}&order=desc`)).status, sort).toBe(200);
    const bad = await get('/api/location?sort=adresa');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});

describe('contracts', () => {
  beforeAll(async () => {
    let day = 10;
    for (const naziv of SHUFFLED) {
      await createContract(t.db, { naziv: `${naziv} Qug`, broj: `QUG-${day}`, datumPocetka: `2026-01-${day}`, rokTrajanja: 50 - 2 * day });
      day += 1;
    }
  });

  it('GET /api/contract and /api/search/contract sort by naziv (Serbian order), dates and numbers', async () => {
    const names = SERBIAN.map((n) => `${n} Qug`);
    const up = await get('/api/search/contract?eng=qug&srb=qug&sort=naziv&order=asc');
    expect(up.status).toBe(200);
    expect(up.body.contracts.map((c: { naziv: string }) => c.naziv)).toEqual(names);
    const list = await get('/api/contract?limit=100&sort=naziv&order=desc');
    expect(
      orderIn(
        list.body.contracts.map((c: { naziv: string }) => c.naziv),
        names,
      ),
    ).toEqual([...names].reverse());
    // Started the 10th … 14th, lasting 30 … 22 days: the later start ends sooner (due the 9th … 5th of February).
    const byStart = await get('/api/search/contract?eng=qug&srb=qug&sort=datumPocetka&order=desc');
    expect(byStart.body.contracts.map((c: { broj: string }) => c.broj)).toEqual(['QUG-14', 'QUG-13', 'QUG-12', 'QUG-11', 'QUG-10']);
    const byDue = await get('/api/search/contract?eng=qug&srb=qug&sort=rokZavrsetka&order=asc');
    expect(byDue.body.contracts.map((c: { broj: string }) => c.broj)).toEqual(['QUG-14', 'QUG-13', 'QUG-12', 'QUG-11', 'QUG-10']);
    for (const sort of ['broj', 'rokTrajanja', 'status']) expect((await get(`/api/contract?sort=${sort}`)).status, sort).toBe(200);
    const bad = await get('/api/contract?sort=fajlovi');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});

describe('topics', () => {
  beforeAll(async () => {
    const group = await createGroup(t.db, { naziv: 'Odgovorna Qtem' });
    const cluster = await createCluster(t.db, { naziv: 'Klaster Qtem', groupIds: [group.id] });
    const priorities = ['visok', 'nizak', 'srednji', 'nizak', 'visok'];
    for (const [i, opis] of SHUFFLED.entries()) {
      const res = await t.call({
        method: 'POST',
        url: '/api/topic',
        token: adminToken,
        payload: { locationId: cluster.id, odgovoran: group.id, opis: `${opis} Qtem`, prioritet: priorities[i] },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('GET /api/topic sorts by opis in Serbian order and by priority, low to high', async () => {
    const names = SERBIAN.map((n) => `${n} Qtem`);
    const up = await get('/api/topic?q=qtem&qAlt=qtem&sort=opis&order=asc');
    expect(up.status).toBe(200);
    expect(up.body.data.map((x: { opis: string }) => x.opis)).toEqual(names);
    const down = await get('/api/topic?q=qtem&qAlt=qtem&sort=opis&order=desc&limit=2&page=2');
    expect(down.body.data.map((x: { opis: string }) => x.opis)).toEqual([names[2], names[1]]);
    const byPriority = await get('/api/topic?q=qtem&qAlt=qtem&sort=prioritet&order=desc');
    expect(byPriority.body.data.map((x: { prioritet: string }) => x.prioritet)).toEqual(['visok', 'visok', 'srednji', 'nizak', 'nizak']);
    for (const sort of ['nazivKlastera', 'status', 'rok']) expect((await get(`/api/topic?sort=${sort}&order=desc`)).status, sort).toBe(200);
    const bad = await get('/api/topic?sort=updatedAt');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});

describe('roles', () => {
  it('GET /api/role sorts by imeRole in Serbian order', async () => {
    for (const ime of SHUFFLED) {
      const res = await t.call({
        method: 'POST',
        url: '/api/role',
        token: adminToken,
        payload: { imeRole: `${ime} Qrol`, kratakNaziv: ime.slice(0, 5), osnovnaRola: 'Zaposleni' },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const names = SERBIAN.map((n) => `${n} Qrol`);
    const down = await get('/api/role?limit=100&sort=imeRole&order=desc');
    expect(down.status).toBe(200);
    expect(
      orderIn(
        down.body.roles.map((r: { imeRole: string }) => r.imeRole),
        names,
      ),
    ).toEqual([...names].reverse());
    for (const sort of ['kratakNaziv', 'osnovnaRola', 'ugradjena']) expect((await get(`/api/role?sort=${sort}`)).status, sort).toBe(200);
    const bad = await get('/api/role?sort=imeRole&order=sideways');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});

describe('activities in progress', () => {
  beforeAll(async () => {
    let day = 10;
    for (const naziv of SHUFFLED) {
      const cluster = await createCluster(t.db, { naziv: `${naziv} Qakt` });
      for (const code of ['A2', 'A10']) {
        await setActivityState(t.db, cluster.id, code, {
          status: 'U toku',
          datumPocetka: `2026-01-${day}`,
          rokZavrsetka: `2026-03-${day}`,
          datumZavrsetka: null,
        });
      }
      day += 1;
    }
  });

  it('GET /api/activity/in-progress sorts by the cluster in Serbian order and by the catalogue order', async () => {
    const names = SERBIAN.map((n) => `${n} Qakt`);
    const down = await get('/api/activity/in-progress?eng=qakt&srb=qakt&limit=50&sort=lokacija&order=desc');
    expect(down.status).toBe(200);
    const clusters = down.body.activities.map((a: { lokacija: { naziv: string } }) => a.lokacija.naziv);
    expect(clusters).toEqual([...names].reverse().flatMap((n) => [n, n]));
    const byCode = await get('/api/activity/in-progress?eng=qakt&srb=qakt&limit=5&sort=kratakNaziv&order=asc');
    expect(byCode.body.activities.map((a: { kratakNaziv: string }) => a.kratakNaziv)).toEqual(['A2', 'A2', 'A2', 'A2', 'A2']);
    const byCodeDown = await get('/api/activity/in-progress?eng=qakt&srb=qakt&limit=5&sort=kratakNaziv&order=desc');
    expect(byCodeDown.body.activities.map((a: { kratakNaziv: string }) => a.kratakNaziv)).toEqual(['A10', 'A10', 'A10', 'A10', 'A10']);
    expect(byCodeDown.body.totalResults).toBe(10);
    for (const sort of ['naziv', 'datumPocetka', 'rokZavrsetka', 'brojDanaDoRoka', 'ugovor']) {
      expect((await get(`/api/activity/in-progress?sort=${sort}&order=desc`)).status, sort).toBe(200);
    }
    const bad = await get('/api/activity/in-progress?sort=status');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});

describe('comments', () => {
  beforeAll(async () => {
    const author = await createUser(t.db, { ime: 'Komentator', prezime: 'Qkom' });
    const cluster = await createCluster(t.db, { naziv: 'Klaster Qkom' });
    const activity = await setActivityState(t.db, cluster.id, 'A2', { status: 'U toku', datumPocetka: '2026-01-10' });
    for (const komentar of SHUFFLED)
      await t.db.insert(activityComments).values({ activityId: activity.id, komentar: `${komentar} Qkom`, userId: author.id });
  });

  it('GET /api/search/comment sorts by komentar in Serbian order; the other keys answer', async () => {
    const names = SERBIAN.map((n) => `${n} Qkom`);
    const up = await get('/api/search/comment?eng=qkom&srb=qkom&sort=komentar&order=asc');
    expect(up.status).toBe(200);
    expect(up.body.comments.map((c: { komentar: string }) => c.komentar)).toEqual(names);
    const down = await get('/api/comment?limit=100&sort=komentar&order=desc');
    expect(
      orderIn(
        down.body.comments.map((c: { komentar: string }) => c.komentar),
        names,
      ),
    ).toEqual([...names].reverse());
    for (const sort of ['ime', 'email', 'klaster', 'aktivnost', 'createdAt'])
      expect((await get(`/api/comment?sort=${sort}&order=desc`)).status, sort).toBe(200);
    const bad = await get('/api/comment?sort=userId');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});
