import { COMMON } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { addLogs } from '../../test/logData.js';
import { mailOutbox } from '../db/schema.js';
import { activityComments } from '../db/schema-activities.js';
import { inventoryContracts, inventoryItems, inventoryTypes, schoolNotifications } from '../db/schema-inventory.js';
import {
  createCluster,
  createContract,
  createGroup,
  createOrgTree,
  createSettlement,
  createUser,
  setActivityState,
  tokenFor,
} from '../seed/factories.js';
import { serbianCompare } from './sorting.js';

/**
 * Server sorting of the paged lists (issue 13 item 9): `sort` and `order`, text in the Serbian alphabet's
 * order (trasa_sr: c, č, ć, d, dž, đ … z), an unknown key or direction refused with the domain's message.
 */
const t = useTestApp();
let adminToken: string;

/** In trasa_sr order; in byte order Č, Ć and Đ would follow Z. */
const SERBIAN = ['Cvetković', 'Čačak', 'Ćuprija', 'Đurić', 'Zec'] as const;
const SHUFFLED = [SERBIAN[3], SERBIAN[0], SERBIAN[4], SERBIAN[2], SERBIAN[1]];

beforeAll(async () => {
  const admin = await createUser(t.db, { role: 'Admin', ime: 'Ana', prezime: 'Adminović' });
  adminToken = await tokenFor(t.ctx, admin);
});

async function get(url: string) {
  const res = await t.call({ method: 'GET', url, token: adminToken });
  return { status: res.statusCode, body: res.json() };
}

/** The given names in the order they appear in `list` (others left out). */
function orderIn(list: string[], names: readonly string[]): string[] {
  return list.filter((n) => names.includes(n));
}

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
      expect(res.body.message, url).toBe(COMMON.badSort);
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
    expect(bad.body.message).toBe(COMMON.badSort);
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
    expect(bad.body.message).toBe(COMMON.badSort);
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
    expect(bad.body.message).toBe(COMMON.badSort);
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
    expect(bad.body.message).toBe(COMMON.badSort);
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
    expect(bad.body.message).toBe(COMMON.badSort);
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
    expect(bad.body.message).toBe(COMMON.badSort);
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
    expect(bad.body.message).toBe(COMMON.badSort);
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
    expect(bad.body.message).toBe(COMMON.badSort);
  });
});

describe('mail outbox', () => {
  it('GET /api/smtp/outbox sorts by subject in Serbian order and by attempts', async () => {
    let attempts = 0;
    for (const subject of SHUFFLED) {
      await t.db
        .insert(mailOutbox)
        .values({ to: 'qmail@primer.rs', subject: `${subject} Qmail`, text: '-', status: 'failed', attempts: attempts++ });
    }
    const names = SERBIAN.map((n) => `${n} Qmail`);
    const up = await get('/api/smtp/outbox?limit=100&status=failed&sort=subject&order=asc');
    expect(up.status).toBe(200);
    expect(
      orderIn(
        up.body.outbox.map((m: { subject: string }) => m.subject),
        names,
      ),
    ).toEqual(names);
    const byAttempts = await get('/api/smtp/outbox?limit=100&status=failed&sort=attempts&order=desc');
    expect(
      orderIn(
        byAttempts.body.outbox.map((m: { subject: string }) => m.subject),
        names,
      ),
    ).toEqual([...SHUFFLED].reverse().map((n) => `${n} Qmail`));
    for (const sort of ['to', 'status', 'createdAt', 'error']) expect((await get(`/api/smtp/outbox?sort=${sort}`)).status, sort).toBe(200);
    const bad = await get('/api/smtp/outbox?sort=text');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(COMMON.badSort);
  });
});

/** The status and body of a call with another caller's token. */
async function getAs(token: string, url: string) {
  const res = await t.call({ method: 'GET', url, token });
  return { status: res.statusCode, body: res.json() };
}

/** A refused `sort`: 400 with the message, and no list in the answer (nothing read). */
async function expectRefused(url: string, token = adminToken) {
  const res = await getAs(token, url);
  expect(res.status, url).toBe(400);
  expect(res.body.message, url).toBe(COMMON.badSort);
  expect(Object.keys(res.body).sort(), url).toEqual(['errors', 'message']);
}

describe('audit log', () => {
  let managerToken: string;
  let leafToken: string;
  /** The manager's rows (mid and leaf) oldest first; the other group's and the root's are outside the scope. */
  const mine: string[] = [];

  beforeAll(async () => {
    const tree = await createOrgTree(t.db, 'Qlog');
    managerToken = await tokenFor(t.ctx, tree.manager);
    leafToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    const at = (minute: number) => new Date(Date.UTC(2024, 0, 5, 9, minute, 0));
    const groupOf = (i: number) => [tree.mid, tree.leaf, tree.other, tree.root][i % 4] as { id: string; cirilica: string };
    const specs = Array.from({ length: 12 }, (_, i) => ({ message: `Zapis ${i} qlogsort`, group: groupOf(i), createdAt: at(i) }));
    await addLogs(t.db, specs);
    for (const s of specs) if (s.group.id === tree.mid.id || s.group.id === tree.leaf.id) mine.push(s.message);
  });

  const messages = (body: { logs: { message: string }[] }) => body.logs.map((l) => l.message).filter((m) => m.endsWith('qlogsort'));

  it("GET /api/log sorts by time both ways across a manager's groups, pages included; the scope stays", async () => {
    const up = await getAs(managerToken, '/api/log?limit=100&sort=createdAt&order=asc');
    expect(up.status).toBe(200);
    expect(messages(up.body)).toEqual(mine);
    const down = await getAs(managerToken, '/api/log?limit=100&sort=createdAt&order=desc');
    expect(messages(down.body)).toEqual([...mine].reverse());
    // Without `sort`: newest first, as before.
    expect(messages((await getAs(managerToken, '/api/log?limit=100')).body)).toEqual([...mine].reverse());
    // The manager's own rows are the oldest of the scope here: page 2 of 2-row pages going up.
    const second = await getAs(managerToken, '/api/log?limit=2&page=2&sort=createdAt&order=asc');
    expect(second.body.logs.map((l: { message: string }) => l.message)).toEqual(mine.slice(2, 4));
    const leaf = await getAs(leafToken, '/api/log?limit=100&sort=createdAt&order=asc');
    expect(messages(leaf.body)).toEqual(mine.filter((_, i) => i % 2 === 1));
  });

  it('GET /api/search/log sorts the matches by time; other keys and directions are refused', async () => {
    const up = await getAs(managerToken, '/api/search/log?eng=qlogsort&srb=qlogsort&sort=createdAt&order=asc');
    expect(up.status).toBe(200);
    expect(messages(up.body)).toEqual(mine);
    const down = await getAs(managerToken, '/api/search/log?eng=qlogsort&srb=qlogsort&sort=createdAt&order=desc&limit=2');
    expect(messages(down.body)).toEqual([...mine].reverse().slice(0, 2));
    expect(up.body.totalLogs).toBe(mine.length);
    await expectRefused('/api/log?sort=message');
    await expectRefused('/api/search/log?eng=a&srb=a&sort=user');
    await expectRefused('/api/log?sort=createdAt&order=ASC');
  });
});

describe('inventory lists', () => {
  /** A Zaposleni of a Naručilac group: keeps the inventory of the group's locations only. */
  let client: string;
  const locations: string[] = SERBIAN.map((n) => `${n} Qinv`);
  const types: string[] = SERBIAN.map((n) => `${n} Qtip`);
  let store: { id: string };

  beforeAll(async () => {
    const nar = await createGroup(t.db, { type: 'NARUCILAC', naziv: 'Naručilac Qinv' });
    const izv = await createGroup(t.db, { type: 'IZVODJAC', naziv: 'Izvođač Qinv' });
    client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
    // The codebook: types in shuffled order, the price growing with the Serbian position.
    const typeIds = new Map<string, string>();
    for (const naziv of SHUFFLED) {
      const price = 100 + SERBIAN.indexOf(naziv);
      const [row] = await t.db
        .insert(inventoryTypes)
        .values({ naziv: `${naziv} Qtip`, tip: 'Oprema', cena: price, valuta: 'RSD', cenaRsd: price, sifra: `Q-${naziv.length}` })
        .returning();
      typeIds.set(naziv, row?.id ?? '');
    }
    // A location of the group per name with one item (its own type), one more the client doesn't see.
    for (const [i, naziv] of SHUFFLED.entries()) {
      const c = await createCluster(t.db, { naziv: `${naziv} Qinv`, groupIds: [nar.id] });
      await t.db.insert(inventoryItems).values({
        typeId: typeIds.get(naziv) ?? '',
        clusterId: c.id,
        kolicina: i + 1,
        cenaRsd: 10,
        datumPrimopredaje: `2026-02-1${i}`,
      });
      await t.db.insert(schoolNotifications).values({
        clusterId: c.id,
        email: `skola${i}@qsk.rs`,
        lista: {},
        codeHash: `qsk-${i}`,
        mailPoslat: i % 2 === 0,
        expiresAt: new Date(Date.UTC(2026, 5, 1 + i)),
      });
    }
    const hidden = await createCluster(t.db, { naziv: 'Čačak skriveni Qinv', groupIds: [izv.id] });
    await t.db
      .insert(inventoryItems)
      .values({ typeId: typeIds.get('Zec') ?? '', clusterId: hidden.id, kolicina: 7, cenaRsd: 10, datumPrimopredaje: '2026-02-20' });
    await t.db.insert(schoolNotifications).values({
      clusterId: hidden.id,
      email: 'skriveni@qsk.rs',
      lista: {},
      codeHash: 'qsk-h',
      expiresAt: new Date(Date.UTC(2026, 5, 1)),
    });
    // One location of the group holding every type (the location's inventory and the summary).
    store = await createCluster(t.db, { naziv: 'Magacin Qzb', groupIds: [nar.id] });
    for (const [i, naziv] of SHUFFLED.entries()) {
      await t.db.insert(inventoryItems).values({
        typeId: typeIds.get(naziv) ?? '',
        clusterId: store.id,
        kolicina: 10 - i,
        cenaRsd: 5,
        datumPrimopredaje: `2026-03-0${i + 1}`,
      });
    }
    for (const [i, naziv] of SHUFFLED.entries()) {
      await t.db
        .insert(inventoryContracts)
        .values({ naziv: `${naziv} Qic`, broj: `QIC-${i}`, brojKey: `qic-${i}`, datumPocetka: `2026-01-0${i + 1}` });
    }
  });

  it('the inventory check (GET /api/A13) sorts by the location in Serbian order; the client still sees only its locations', async () => {
    const up = await getAs(client, '/api/A13?eng=qinv&srb=qinv&sort=naziv&order=asc');
    expect(up.status).toBe(200);
    expect(up.body.a13.map((r: { lokacija: { naziv: string } }) => r.lokacija.naziv)).toEqual(locations);
    const down = await getAs(client, '/api/A13?eng=qinv&srb=qinv&sort=naziv&order=desc&limit=2&page=2');
    expect(down.body.a13.map((r: { lokacija: { naziv: string } }) => r.lokacija.naziv)).toEqual([locations[2], locations[1]]);
    expect(down.body.totalResults).toBe(5);
    const admin = await get('/api/A13?eng=qinv&srb=qinv&sort=naziv&order=desc');
    expect(admin.body.a13.map((r: { lokacija: { naziv: string } }) => r.lokacija.naziv)).toContain('Čačak skriveni Qinv');
    for (const sort of ['status', 'inventar']) expect((await getAs(client, `/api/a13?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/A13?sort=lokacija', client);
  });

  it('every item (GET /api/inventory-reports/sve) sorts by the type and the location; the value, quantity and others answer', async () => {
    const byType = await getAs(client, '/api/inventory-reports/sve?eng=qinv&srb=qinv&sort=naziv&order=asc&limit=50');
    expect(byType.status).toBe(200);
    expect(byType.body.allInventory.map((i: { invType: { naziv: string } }) => i.invType.naziv)).toEqual(types);
    const byPlace = await getAs(client, '/api/inventory-reports/sve?eng=qinv&srb=qinv&sort=lokacija&order=desc&limit=50');
    expect(byPlace.body.allInventory.map((i: { lokacija: { naziv: string } }) => i.lokacija.naziv)).toEqual([...locations].reverse());
    // Quantity i + 1 for the i-th location written (SHUFFLED): the value at one price follows it.
    const byValue = await getAs(client, '/api/inventory-reports/sve?eng=qinv&srb=qinv&sort=ukupnoRsd&order=desc&limit=50');
    expect(byValue.body.allInventory.map((i: { lokacija: { naziv: string } }) => i.lokacija.naziv)).toEqual(
      [...SHUFFLED].reverse().map((n) => `${n} Qinv`),
    );
    for (const sort of ['tip', 'sifra', 'kolicina', 'cenaRsd', 'datumPrimopredaje', 'ugovor'])
      expect((await getAs(client, `/api/inventory-reports/sve?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/inventory-reports/sve?sort=invType', client);
  });

  it("a location's items (GET /api/inventory) and the codebook (GET /api/inv-type) sort whole, in Serbian order", async () => {
    const items = await getAs(client, `/api/inventory?lokacija=${store.id}&sort=naziv&order=desc`);
    expect(items.status).toBe(200);
    expect(items.body.inventory.map((i: { invType: { naziv: string } }) => i.invType.naziv)).toEqual([...types].reverse());
    const byQuantity = await getAs(client, `/api/inventory?lokacija=${store.id}&sort=kolicina&order=asc`);
    expect(byQuantity.body.inventory.map((i: { kolicina: number }) => i.kolicina)).toEqual([6, 7, 8, 9, 10]);
    const codebook = await getAs(client, '/api/inv-type?tip=Oprema&sort=naziv&order=asc');
    expect(
      orderIn(
        codebook.body.invTypes.map((x: { naziv: string }) => x.naziv),
        types,
      ),
    ).toEqual(types);
    const byPrice = await getAs(client, '/api/inv-type?tip=Oprema&sort=cenaRsd&order=desc');
    expect(
      orderIn(
        byPrice.body.invTypes.map((x: { naziv: string }) => x.naziv),
        types,
      ),
    ).toEqual([...types].reverse());
    for (const sort of ['kratakNaziv', 'cena', 'sifra', 'jedinica', 'trajanjeGarancije', 'redniBroj'])
      expect((await getAs(client, `/api/inv-type?sort=${sort}`)).status, sort).toBe(200);
    await expectRefused(`/api/inventory?lokacija=${store.id}&sort=kolicina&order=up`, client);
    await expectRefused('/api/inv-type?sort=tip', client);
  });

  it('the summary per type and the state per location sort by their columns; the query sort overrides the path', async () => {
    const sum = await getAs(client, `/api/inventory-reports/sumarno/datum?lokacija=${store.id}&sort=naziv&order=asc`);
    expect(sum.status).toBe(200);
    expect(sum.body.sumPerTypeInventory.map((r: { naziv: string }) => r.naziv)).toEqual(types);
    const byQuantity = await getAs(client, `/api/inventory-reports/sumarno/naziv?lokacija=${store.id}&sort=kolicina&order=desc`);
    expect(byQuantity.body.sumPerTypeInventory.map((r: { kolicina: number }) => r.kolicina)).toEqual([10, 9, 8, 7, 6]);
    for (const sort of ['tip', 'sifra', 'brojLokacija', 'datum', 'ukupnoRsd'])
      expect((await getAs(client, `/api/inventory-reports/sumarno/naziv?sort=${sort}`)).status, sort).toBe(200);
    await expectRefused('/api/inventory-reports/sumarno/naziv?sort=jedinica', client);

    const places = await getAs(client, '/api/inventory-reports/inventar-po-lokaciji?eng=qinv&srb=qinv&sort=naziv&order=desc');
    expect(places.status).toBe(200);
    expect(places.body.inventoryPerLocation.map((r: { naziv: string }) => r.naziv)).toEqual([...locations].reverse());
    for (const sort of ['brojStavki', 'materijal', 'oprema', 'radovi', 'ukupnoRsd', 'a13', 'potvrdaSkole'])
      expect((await getAs(client, `/api/inventory-reports/inventar-po-lokaciji?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/inventory-reports/inventar-po-lokaciji?sort=opstina', client);
  });

  it('the notified schools sort by the location; the inventory contracts by their own keys (not those of spec 2)', async () => {
    const schools = await getAs(client, '/api/school-notification?eng=qinv&srb=qinv&sort=lokacija&order=asc');
    expect(schools.status).toBe(200);
    expect(schools.body.notifications.map((n: { lokacija: { naziv: string } }) => n.lokacija.naziv)).toEqual(locations);
    for (const sort of ['email', 'mailPoslat', 'datumSlanja', 'potvrdaSkole', 'mailPotvrdjen', 'istice'])
      expect((await getAs(client, `/api/school-notification?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/school-notification?sort=lista', client);

    const names = SERBIAN.map((n) => `${n} Qic`);
    const contracts = await getAs(client, '/api/search/contract?inventory=true&eng=qic&srb=qic&sort=naziv&order=asc');
    expect(contracts.status).toBe(200);
    expect(contracts.body.contracts.map((c: { naziv: string }) => c.naziv)).toEqual(names);
    const byStart = await getAs(client, '/api/search/contract?inventory=true&eng=qic&srb=qic&sort=datumPocetka&order=desc');
    expect(byStart.body.contracts.map((c: { broj: string }) => c.broj)).toEqual(['QIC-4', 'QIC-3', 'QIC-2', 'QIC-1', 'QIC-0']);
    for (const sort of ['broj', 'datumZavrsetka', 'status', 'brojLokacija'])
      expect((await getAs(client, `/api/contract?inventory=true&sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/contract?inventory=true&sort=rokTrajanja', client);
  });
});

describe('reports', () => {
  let employee: string;
  const names = SERBIAN.map((n) => `${n} Qrep`);

  beforeAll(async () => {
    const group = await createGroup(t.db, { naziv: 'Izveštajna Qrep' });
    employee = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: group.id }));
    for (const naziv of [...SHUFFLED.map((n) => `${n} Qrep`), 'Čačak skriveni Qrep']) {
      const c = await createCluster(t.db, { naziv, groupIds: naziv.includes('skriveni') ? [] : [group.id] });
      await setActivityState(t.db, c.id, 'A9', { status: 'Završena', datumPocetka: '2026-01-05', datumZavrsetka: '2026-02-01' });
    }
  });

  it("the finished activities, an activity's and the route lengths report sort by the cluster; the employee's scope stays", async () => {
    const finished = await getAs(employee, '/api/report/finished?limit=100&sort=klaster&order=asc');
    expect(finished.status).toBe(200);
    expect(finished.body.clusters.map((c: { klaster: string }) => c.klaster)).toEqual(names);
    const activity = await getAs(employee, '/api/report/A9?eng=qrep&srb=qrep&sort=klaster&order=desc');
    expect(activity.status).toBe(200);
    expect(activity.body.rows.map((r: { klaster: { naziv: string } }) => r.klaster.naziv)).toEqual([...names].reverse());
    const lengths = await getAs(employee, '/api/report/duzine/A9?eng=qrep&srb=qrep&sort=klaster&order=asc&limit=2&page=2');
    expect(lengths.status).toBe(200);
    expect(lengths.body.rows.map((r: { klaster: { naziv: string } }) => r.klaster.naziv)).toEqual(names.slice(2, 4));
    for (const sort of ['ugovor', 'zavrsene']) expect((await getAs(employee, `/api/report/finished?sort=${sort}`)).status, sort).toBe(200);
    for (const sort of ['ugovor', 'status', 'datumPocetka', 'datumZavrsetka', 'rok'])
      expect((await getAs(employee, `/api/report/A9?sort=${sort}&order=desc`)).status, sort).toBe(200);
    for (const sort of ['ugovor', 'status', 'datumZavrsetka', 'duzina'])
      expect((await getAs(employee, `/api/report/duzine/A1?sort=${sort}&order=desc`)).status, sort).toBe(200);
    for (const sort of ['ugovor', 'klaster', 'imaoc', 'status', 'taksa', 'zaduzen', 'izvodjac'])
      expect((await get(`/api/report/ijo-takse?sort=${sort}&order=desc`)).status, sort).toBe(200);
    await expectRefused('/api/report/finished?sort=uRoku');
    await expectRefused('/api/report/A9?sort=podaci');
    await expectRefused('/api/report/duzine/A9?sort=naselje');
    await expectRefused('/api/report/ijo-takse?sort=ugovorBroj');
  });

  it('the in-memory comparator orders names as trasa_sr does (the IJO report itself sorts in SQL: ijoRows.test.ts)', async () => {
    const names = [
      ...SHUFFLED,
      'Dževad',
      'Džaković',
      'Ljubović',
      'Lazić',
      'Njegoš',
      'Novak',
      'Šabac',
      'Sava',
      'Žabljak',
      'Zlatibor',
      'avala',
      'Avala',
      'Klaster 10',
      'Klaster 9',
      'Ana-Marija',
      'Ana Marija',
    ];
    const inMemory = [...names].sort(serbianCompare);
    const result = await t.db.execute<{ v: string }>(
      sql`select v from jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) v order by v collate trasa_sr`,
    );
    expect(inMemory).toEqual(result.rows.map((r) => r.v));
    expect([...SHUFFLED].sort(serbianCompare)).toEqual([...SERBIAN]);
  });
});
