import { beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../../db/schema-clusters.js';
import { createCluster, createContract, linkClusterToContract } from '../../seed/factories.js';
import {
  active,
  adminToken,
  allSeeingToken,
  call,
  ids,
  leafToken,
  list,
  managerToken,
  NO_ID,
  otherToken,
  type Row,
  search,
  setupClusters,
  t,
  tree,
} from './clustersSetup.js';
import { clusterColour, presentContractBrief } from './presenter.js';

setupClusters();
describe('visibility', () => {
  let ofLeaf: Row;
  let ofMid: Row;
  let ofRoot: Row;
  let ofOther: Row;
  let viaContract: Row;
  let nobodys: Row;

  beforeAll(async () => {
    ofLeaf = await createCluster(t.db, { naziv: 'Vid Leaf Čajetina', groupIds: [tree.leaf.id] });
    ofMid = await createCluster(t.db, { naziv: 'Vid Mid Užice', groupIds: [tree.mid.id] });
    ofRoot = await createCluster(t.db, { naziv: 'Vid Root Ivanjica', groupIds: [tree.root.id] });
    ofOther = await createCluster(t.db, { naziv: 'Vid Other Raška', groupIds: [tree.other.id] });
    nobodys = await createCluster(t.db, { naziv: 'Vid Niko Bajina Bašta' });
    viaContract = await createCluster(t.db, { naziv: 'Vid Ugovor Kosjerić', groupIds: [tree.root.id] });
    const nad = await createContract(t.db, { kind: 'contractNad', groupIds: [tree.other.id] });
    await linkClusterToContract(t.db, nad, viaContract.id);
  });

  const visibleIds = async (token: string) => new Set(ids((await search(token, { eng: 'vid ' })).locations));
  const all = () => [ofLeaf, ofMid, ofRoot, ofOther, nobodys, viaContract].map((c) => c.id);

  it('an employee sees the clusters of their group and its ancestors, and those of contracts their group is on', async () => {
    // The group tree (docs/decisions.md "Visibility follows the group tree"): leaf is a team of mid and root.
    expect(await visibleIds(leafToken)).toEqual(new Set([ofLeaf.id, ofMid.id, ofRoot.id, viaContract.id]));
    expect(await visibleIds(otherToken)).toEqual(new Set([ofOther.id, viaContract.id]));
    const listed = ids((await list(leafToken)).locations);
    for (const id of [ofLeaf.id, ofMid.id, ofRoot.id, viaContract.id]) expect(listed).toContain(id);
    for (const id of [ofOther.id, nobodys.id]) expect(listed).not.toContain(id);
  });

  it('a cluster outside the visibility is 404 exactly like a missing one', async () => {
    const foreign = await call('GET', `/api/location/${ofOther.id}`, leafToken);
    const missing = await call('GET', `/api/location/${NO_ID}`, leafToken);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect((await call('GET', `/api/location/${ofLeaf.id}`, leafToken)).statusCode).toBe(200);
    expect((await call('GET', `/api/location/${viaContract.id}`, otherToken)).statusCode).toBe(200);
  });

  it('a Rukovodilac sees what their subtree’s groups see; sveVideci and Admin see all', async () => {
    expect(await visibleIds(managerToken)).toEqual(new Set([ofLeaf.id, ofMid.id, ofRoot.id, viaContract.id]));
    expect(await visibleIds(allSeeingToken)).toEqual(new Set(all()));
    expect(await visibleIds(adminToken)).toEqual(new Set(all()));
    expect((await call('GET', `/api/location/${nobodys.id}`, allSeeingToken)).statusCode).toBe(200);
  });

  it('autocomplete offers visible clusters only, with the name in both scripts', async () => {
    const res = await call('GET', `/api/location/get/autocomplete?value=${encodeURIComponent('вид')}`, leafToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      locations: [
        { _id: ofLeaf.id, nazivLokacije: 'Vid Leaf Čajetina', cyr: 'Вид Леаф Чајетина', lat: 'Vid Leaf Čajetina' },
        { _id: ofMid.id, nazivLokacije: 'Vid Mid Užice', cyr: 'Вид Мид Ужице', lat: 'Vid Mid Užice' },
        { _id: ofRoot.id, nazivLokacije: 'Vid Root Ivanjica', cyr: 'Вид Роот Ивањица', lat: 'Vid Root Ivanjica' },
        { _id: viaContract.id, nazivLokacije: 'Vid Ugovor Kosjerić', cyr: 'Вид Уговор Косјерић', lat: 'Vid Ugovor Kosjerić' },
      ],
    });
    const admin = (await call('GET', '/api/location/get/autocomplete?value=', adminToken)).json();
    expect(admin.locations.length).toBeLessThanOrEqual(20);
    expect(admin.locations.length).toBeGreaterThan(0);
  });

  it('aktivne counts visible clusters in progress (none before activities), totalResults the visible ones', async () => {
    const body = await list(managerToken, 'page=1&limit=1');
    expect(body.aktivne).toBe(0);
    expect(body.locations).toHaveLength(1);
    const whole = await list(managerToken);
    expect(body.totalResults).toBe(whole.locations.length);
    expect(whole.totalResults).toBe(whole.locations.length);
  });
});

describe('GET /api/location and /api/search/location', () => {
  it('orders by name, pages, and searches in Latin and Cyrillic', async () => {
    const c = await createCluster(t.db, { naziv: 'Ђурђевић Брдо Шљивовица' });
    for (const typed of ['djurdjevic', 'Đurđević brdo', 'ЂУРЂ', 'sljivovica', 'шљив']) {
      const body = await search(adminToken, { eng: typed });
      expect(ids(body.locations), typed).toEqual([c.id]);
      expect(body.totalResults).toBe(1);
    }
    expect((await search(adminToken, { eng: '%' })).totalResults).toBe(0);
    const all = await list(adminToken);
    const ordered = await t.db.select({ id: clusters.id }).from(clusters).orderBy(clusters.naziv, clusters.id);
    expect(ids(all.locations)).toEqual(ordered.map((r) => r.id));
    const page = await list(adminToken, 'page=2&limit=3');
    expect(ids(page.locations)).toEqual(ids(all.locations).slice(3, 6));
    expect(page.totalResults).toBe(all.totalResults);
    expect((await call('GET', '/api/location?page=x', adminToken)).statusCode).toBe(400);
  });
});

describe('colour', () => {
  it('is the deadline colour against the general contract while in progress', () => {
    const ugovor = presentContractBrief({ ...active, datumPocetka: '2025-01-01', rokTrajanja: 100 });
    expect(ugovor.rokZavrsetka).toBe('2025-04-11');
    expect(clusterColour('Nije započet', ugovor, null, new Date('2025-02-01'))).toBe('white');
    expect(clusterColour('U toku', ugovor, null, new Date('2025-02-01'))).toBe('blue');
    expect(clusterColour('U toku', ugovor, null, new Date('2025-04-05'))).toBe('orange');
    expect(clusterColour('U toku', ugovor, null, new Date('2025-05-01'))).toBe('red');
    expect(clusterColour('Završen', ugovor, '2025-04-01', new Date('2025-05-01'))).toBe('green');
    expect(clusterColour('Završen', ugovor, '2025-04-20', new Date('2025-05-01'))).toBe('greenRed');
    expect(clusterColour('U toku', null, null)).toBe('white');
  });
});
