import { foldForSearch, transliterate } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import {
  createCluster,
  createGroup,
  createOrgTree,
  createSettlement,
  createUser,
  setActivityState,
  tokenFor,
} from '../../seed/factories.js';

const t = useTestApp();

let tree: Awaited<ReturnType<typeof createOrgTree>>;
let adminToken: string;
let managerToken: string;
let djordjevicMine: Awaited<ReturnType<typeof createUser>>;
let djordjevicOther: Awaited<ReturnType<typeof createUser>>;
let djordjevicGuest: Awaited<ReturnType<typeof createUser>>;
let cyrillicName: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  tree = await createOrgTree(t.db, 'Pretraga');
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  managerToken = await tokenFor(t.ctx, tree.manager);
  djordjevicMine = await createUser(t.db, { ime: 'Ivana', prezime: 'Đorđević', email: 'ivana.dj@primer.rs', groupId: tree.leaf.id });
  djordjevicOther = await createUser(t.db, { ime: 'Đorđe', prezime: 'Marković', email: 'djm@primer.rs', groupId: tree.other.id });
  djordjevicGuest = await createUser(t.db, { role: 'Gost', ime: 'Mila', prezime: 'Đorđević', email: 'mila@primer.rs' });
  cyrillicName = await createUser(t.db, { ime: 'Љубиша', prezime: 'Њежић', email: 'ljubisa@primer.rs', groupId: tree.mid.id });
  await createUser(t.db, { ime: 'Petar', prezime: 'Perić', email: 'petar_peric@primer.rs', groupId: tree.mid.id });
  await createUser(t.db, { ime: 'Zoran 100%', prezime: 'Zorić', email: 'zoran100posto@primer.rs', groupId: tree.mid.id });
});

const search = async (kind: 'user' | 'group', params: Record<string, string>, token = adminToken) => {
  const res = await t.call({ method: 'GET', url: `/api/search/${kind}?${new URLSearchParams(params)}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ids = (list: { _id: string }[]) => list.map((x) => x._id);

describe('trasa_fold', () => {
  it('is foldForSearch, in the database', async () => {
    const samples = [
      'Đorđević',
      'ĐORĐEVIĆ',
      'Ђорђевић',
      'ђорђевић',
      'djordjevic',
      'Љубиша Њежић',
      'ЉУБИША',
      'Џајић Џ',
      'Šćekić Žarko Čolić',
      'Министарство информисања и телекомуникација',
      'info@primer.rs 100% a_b',
      'Ћ Ч Ж Ш Ђ',
      'Straße Ünal',
    ];
    for (const s of samples) {
      const result = await t.db.execute<{ f: string }>(sql`select trasa_fold(${s}) as f`);
      expect(result.rows[0]?.f, s).toBe(foldForSearch(s));
    }
  });
});

describe('GET /api/search/user', () => {
  it('finds Đorđević however it is typed, in either script', async () => {
    for (const typed of ['djordjevic', 'Djordjevic', 'ђорђевић', 'Đorđević', 'ĐORĐEVIĆ', 'DJORDJ', 'орђ']) {
      // The search box sends the typed text and its transliteration.
      const body = await search('user', { eng: typed, srb: transliterate(typed), page: '1', limit: '10' });
      expect(ids(body.users), typed).toEqual(expect.arrayContaining([djordjevicMine.id, djordjevicGuest.id]));
      expect(body.totalResults).toBe(body.users.length);
    }
    // Either parameter alone is enough.
    expect(ids((await search('user', { srb: 'ђорђевић' })).users)).toContain(djordjevicMine.id);
    expect(ids((await search('user', { eng: 'djordjevic' })).users)).toContain(djordjevicMine.id);
  });

  it('matches first name, last name and e-mail; Cyrillic names by Latin and the other way', async () => {
    expect(ids((await search('user', { eng: 'djordje' })).users)).toContain(djordjevicOther.id);
    expect(ids((await search('user', { eng: 'ljubisa nj' })).users)).toEqual([cyrillicName.id]);
    expect(ids((await search('user', { eng: 'Њежић' })).users)).toEqual([cyrillicName.id]);
    expect(ids((await search('user', { eng: 'LJUBISA@PRIMER' })).users)).toEqual([cyrillicName.id]);
    expect((await search('user', { eng: 'niko-ovako-ne-postoji' })).totalResults).toBe(0);
  });

  it('keeps a Rukovodilac within their subtree', async () => {
    const body = await search('user', { eng: 'djordj', srb: 'дјордј' }, managerToken);
    expect(ids(body.users)).toEqual([djordjevicMine.id]);
    expect(body.totalResults).toBe(1);
  });

  it('treats % and _ as plain characters', async () => {
    expect((await search('user', { eng: '%' })).users.map((u: { email: string }) => u.email)).toEqual(['zoran100posto@primer.rs']);
    expect((await search('user', { eng: '0%' })).users.map((u: { email: string }) => u.email)).toEqual(['zoran100posto@primer.rs']);
    expect((await search('user', { eng: '_' })).users.map((u: { email: string }) => u.email)).toEqual(['petar_peric@primer.rs']);
    expect((await search('user', { eng: '\\' })).totalResults).toBe(0);
  });

  it('with nothing typed is the plain list', async () => {
    for (const token of [adminToken, managerToken]) {
      const plain = (await t.call({ method: 'GET', url: '/api/user?page=1&limit=50000', token })).json();
      expect(await search('user', { eng: '', srb: '', page: '1', limit: '50000' }, token)).toEqual(plain);
      expect(await search('user', { eng: '   ', limit: '50000' }, token)).toEqual(plain);
    }
  });

  it('pages, clamps huge limits, refuses over-long text and malformed numbers', async () => {
    const all = await search('user', { eng: 'primer.rs', limit: '99999999' });
    const p2 = await search('user', { eng: 'primer.rs', page: '2', limit: '2' });
    expect(p2.totalResults).toBe(all.totalResults);
    expect(ids(p2.users)).toEqual(ids(all.users).slice(2, 4));
    for (const q of [`eng=${'a'.repeat(201)}`, 'limit=deset', 'page=-', 'eng=a&eng=b']) {
      const res = await t.call({ method: 'GET', url: `/api/search/user?${q}`, token: adminToken });
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('never finds deleted accounts', async () => {
    const gone = await createUser(t.db, { ime: 'Obrisani', prezime: 'Đukić', groupId: tree.leaf.id });
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    expect(ids((await search('user', { eng: 'djukic' })).users)).not.toContain(gone.id);
  });
});

describe('GET /api/search/group', () => {
  it('finds groups by naziv, kratakNaziv and cirilica in either script, never the reserved one', async () => {
    const g = await createGroup(t.db, { naziv: 'Optika Gradnja Čačak', cirilica: 'Оптика Градња Чачак', kratakNaziv: 'OGČ' });
    for (const typed of ['cacak', 'Чачак', 'čačak', 'ogc', 'градња ча']) {
      expect(ids((await search('group', { eng: typed, srb: transliterate(typed) })).groups), typed).toContain(g.id);
    }
    const admin = await search('group', { eng: 'admin', srb: 'админ', limit: '50000' });
    expect(admin.groups.map((x: { naziv: string }) => x.naziv)).not.toContain('Admin');
  });

  it('keeps a Rukovodilac within their subtree', async () => {
    const body = await search('group', { eng: 'pretraga', limit: '100' }, managerToken);
    expect(new Set(ids(body.groups))).toEqual(new Set([tree.mid.id, tree.leaf.id]));
    const adminBody = await search('group', { eng: 'pretraga', limit: '100' });
    expect(new Set(ids(adminBody.groups))).toEqual(new Set([tree.root.id, tree.mid.id, tree.leaf.id, tree.other.id]));
    // The list's fields (GroupListItem), as GET /api/group answers them.
    expect(Object.keys(adminBody.groups[0])).toEqual([
      '_id',
      'naziv',
      'kratakNaziv',
      'tip',
      'tipKod',
      'tipId',
      'sveVideci',
      'nadredjenaGrupa',
    ]);
  });

  it('with nothing typed is the plain list', async () => {
    const plain = (await t.call({ method: 'GET', url: '/api/group?limit=50000', token: managerToken })).json();
    expect(await search('group', { limit: '50000' }, managerToken)).toEqual(plain);
  });
});

describe('GET /api/search/location (with the per-activity report’s activity)', () => {
  let employeeToken: string;
  let guestToken: string;
  let zlatibor: { id: string; naziv: string };
  let zlatar: { id: string; naziv: string };
  let hidden: { id: string; naziv: string };
  let plain: { id: string; naziv: string };

  beforeAll(async () => {
    const uzice = await createSettlement(t.db, { naziv: 'Ужице Пазар' });
    zlatibor = await createCluster(t.db, { naziv: 'Zlatibor Pretraga', groupIds: [tree.leaf.id] });
    zlatar = await createCluster(t.db, { naziv: 'Златар Претрага', groupIds: [tree.leaf.id], naselja: [uzice.id] });
    plain = await createCluster(t.db, { naziv: 'Obični Klaster Pretraga', groupIds: [tree.leaf.id] });
    hidden = await createCluster(t.db, { naziv: 'Zlatibor Skriveni', groupIds: [tree.other.id] });
    await setActivityState(t.db, zlatibor.id, 'A4', { status: 'U toku', datumPocetka: '2026-01-05', rokZavrsetka: '2026-02-05' });
    await setActivityState(t.db, zlatar.id, 'A4', {
      status: 'Završena',
      datumPocetka: '2026-01-02',
      rokZavrsetka: '2026-01-20',
      datumZavrsetka: '2026-01-18',
    });
    await setActivityState(t.db, hidden.id, 'A4', { status: 'U toku', datumPocetka: '2026-01-05' });
    employeeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    guestToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
  });

  const url = (params: Record<string, string>) => `/api/search/location?${new URLSearchParams(params)}`;
  const clusterIds = (body: { rows: { klaster: { _id: string } }[] }) => body.rows.map((r) => r.klaster._id);

  it('without activity answers the clusters list, searched', async () => {
    const body = await t.call({ method: 'GET', url: url({ eng: 'pretraga', srb: 'претрага' }), token: employeeToken });
    expect(body.statusCode).toBe(200);
    const json = body.json();
    expect(new Set(ids(json.locations))).toEqual(new Set([zlatibor.id, zlatar.id, plain.id]));
    expect(json.totalResults).toBe(3);
    const empty = (await t.call({ method: 'GET', url: url({ eng: 'pretraga', activity: '' }), token: employeeToken })).json();
    expect(empty.totalResults).toBe(3);
  });

  it('with activity answers that activity’s records of the matching visible clusters', async () => {
    const res = await t.call({ method: 'GET', url: url({ eng: 'zlat', srb: 'злат', activity: 'a4' }), token: employeeToken });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.activity.kratakNaziv).toBe('A4');
    // Both scripts meet; the hidden Zlatibor (another group's) is left out.
    expect(new Set(clusterIds(body))).toEqual(new Set([zlatibor.id, zlatar.id]));
    expect(body.totalResults).toBe(2);
    const finished = body.rows.find((r: { klaster: { _id: string } }) => r.klaster._id === zlatar.id);
    expect(finished).toMatchObject({ status: 'Završena', datumZavrsetka: '2026-01-18', rokZavrsetka: '2026-01-20' });
    // A settlement's name finds its cluster.
    const bySettlement = (
      await t.call({ method: 'GET', url: url({ eng: 'uzice', srb: 'ужице', activity: 'A4' }), token: employeeToken })
    ).json();
    expect(clusterIds(bySettlement)).toEqual([zlatar.id]);
    // The Admin sees every cluster.
    const admin = (await t.call({ method: 'GET', url: url({ eng: 'zlatibor', activity: 'A4' }), token: adminToken })).json();
    expect(new Set(clusterIds(admin))).toEqual(new Set([zlatibor.id, hidden.id]));
    // Paged like the report.
    const page2 = (
      await t.call({ method: 'GET', url: url({ eng: 'zlat', srb: 'злат', activity: 'A4', page: '2', limit: '1' }), token: employeeToken })
    ).json();
    expect(page2.rows).toHaveLength(1);
    expect(page2.totalResults).toBe(2);
    expect([...clusterIds(body)]).toContain(page2.rows[0].klaster._id);
  });

  it('refuses an unknown activity (404) and a malformed contract (400) in Serbian, a guest (403)', async () => {
    const unknown = await t.call({ method: 'GET', url: url({ eng: 'zlat', activity: 'A99' }), token: employeeToken });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(said('Nepostojeća aktivnost.'));
    const badContract = await t.call({ method: 'GET', url: url({ activity: 'A4', contract: 'nije-id' }), token: employeeToken });
    expect(badContract.statusCode).toBe(400);
    const tooLong = await t.call({ method: 'GET', url: url({ activity: 'A'.repeat(50) }), token: employeeToken });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toMatch(/^Неисправн/);
    expect((await t.call({ method: 'GET', url: url({ activity: 'A4' }), token: guestToken })).statusCode).toBe(403);
  });
});
