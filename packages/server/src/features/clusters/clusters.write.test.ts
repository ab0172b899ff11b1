import { CLUSTERS, COMMON, USERS } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters } from '../../db/schema-clusters.js';
import { createCluster, linkClusterToContract } from '../../seed/factories.js';
import {
  active,
  active2,
  adminGroup,
  adminToken,
  call,
  clusterCount,
  finished,
  ids,
  leafToken,
  managerToken,
  NO_ID,
  otherManagerToken,
  s,
  setupClusters,
  t,
  tree,
  typed,
} from './clustersSetup.js';
import { CLUSTER_TEXTS } from './service.js';

setupClusters();
describe('POST /api/location', () => {
  it('creates a cluster with groups, settlements, incidental settlements, decimals with a comma and a contract', async () => {
    const res = await call('POST', '/api/location', adminToken, {
      naziv: '  Zlatibor Sever ',
      odgovoran: [tree.leaf.id, tree.other.id, tree.leaf.id],
      ugovor: active.id,
      indikativnaDuzinaKlastera: '12,5',
      ugovorenaVrednostKlastera: '1500000.75',
      naselja: [s[1]?.id, s[0]?.id],
      usputnaNaselja: [s[2]?.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { message, location } = res.json();
    expect(message).toBe(CLUSTERS.created);
    expect(location).toEqual({
      _id: expect.any(String),
      naziv: 'Zlatibor Sever',
      odgovoran: [
        { _id: tree.leaf.id, naziv: tree.leaf.naziv, tip: 'Izvođač', tipKod: 'IZVODJAC' },
        { _id: tree.other.id, naziv: tree.other.naziv, tip: 'Nadzor', tipKod: 'NADZOR' },
      ],
      ugovor: {
        _id: active.id,
        naziv: 'Ugovor Zapadna Srbija',
        broj: '404-1/2025',
        status: 'U toku',
        datumPocetka: '2025-03-01',
        rokTrajanja: 300,
        datumZavrsetka: null,
        rokZavrsetka: '2025-12-26',
        route: 'contract',
      },
      ugovori: { contractIzv: null, contractPro: null, contractNad: null },
      indikativnaDuzinaKlastera: 12.5,
      ugovorenaVrednostKlastera: 1500000.75,
      naselja: [
        expect.objectContaining({ _id: s[1]?.id, naziv: 'Rožanstvo', opstina: ['Čajetina'] }),
        expect.objectContaining({ _id: s[0]?.id }),
      ],
      usputnaNaselja: [expect.objectContaining({ _id: s[2]?.id, naziv: 'Ljubiš' })],
      status: 'Nije započet',
      adresa: '',
      aktivnosti: expect.any(Array),
      datumZavrsetka: null,
      boja: 'white',
    });
    // The cluster's activity records come with it (shared/activityReference.ts), none started.
    expect(location.aktivnosti.map((a: { status: string }) => a.status)).toEqual(Array(36).fill('Nije započeta'));
    const links = await t.db.select().from(contractClusters).where(eq(contractClusters.clusterId, location._id));
    expect(links.map((l) => [l.contractId, l.kind])).toEqual([[active.id, 'contract']]);
    const logs = await t.db.select().from(auditLogs).where(sql`${auditLogs.message} like '%klaster Zlatibor Sever%'`);
    expect(logs).toHaveLength(1);
    const detail = await call('GET', `/api/location/${location._id}`, adminToken);
    expect(detail.json()).toEqual({ location });
  });

  it('creates with only a name; an empty ugovor is none', async () => {
    const res = await call('POST', '/api/location', adminToken, {
      naziv: 'Samo naziv',
      ugovor: '',
      indikativnaDuzinaKlastera: '',
      ugovorenaVrednostKlastera: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().location).toMatchObject({
      odgovoran: [],
      ugovor: null,
      naselja: [],
      usputnaNaselja: [],
      indikativnaDuzinaKlastera: null,
      ugovorenaVrednostKlastera: null,
    });
  });

  it('refuses every invalid payload with the form’s message and field, and saves nothing', async () => {
    await createCluster(t.db, { naziv: 'Kremna Jug' });
    const before = await clusterCount();
    const ok = { naziv: 'Novi klaster X' };
    const cases: [object, number, string, string][] = [
      [{}, 400, 'naziv', CLUSTERS.required],
      [{ naziv: '   ' }, 400, 'naziv', CLUSTERS.required],
      [{ naziv: 5 }, 400, 'naziv', CLUSTERS.required],
      [{ ...ok, indikativnaDuzinaKlastera: 'dvanaest' }, 400, 'indikativnaDuzinaKlastera', CLUSTERS.mustBeNumber],
      [{ ...ok, ugovorenaVrednostKlastera: '1,5,5' }, 400, 'ugovorenaVrednostKlastera', CLUSTERS.mustBeNumber],
      // Money typed as the app shows it: a second separator or a third decimal is refused, never collapsed.
      [{ ...ok, ugovorenaVrednostKlastera: '2.500,50' }, 400, 'ugovorenaVrednostKlastera', CLUSTERS.mustBeNumber],
      [{ ...ok, ugovorenaVrednostKlastera: '15.000' }, 400, 'ugovorenaVrednostKlastera', CLUSTERS.mustBeNumber],
      [{ ...ok, ugovorenaVrednostKlastera: '10,123456' }, 400, 'ugovorenaVrednostKlastera', CLUSTERS.mustBeNumber],
      [{ ...ok, ugovorenaVrednostKlastera: true }, 400, 'ugovorenaVrednostKlastera', CLUSTERS.mustBeNumber],
      [{ ...ok, ugovorenaVrednostKlastera: { n: 1 } }, 400, 'ugovorenaVrednostKlastera', CLUSTERS.mustBeNumber],
      [{ ...ok, indikativnaDuzinaKlastera: '-3' }, 400, 'indikativnaDuzinaKlastera', CLUSTERS.mustBeNumber],
      [{ ...ok, indikativnaDuzinaKlastera: '1e400' }, 400, 'indikativnaDuzinaKlastera', CLUSTERS.mustBeNumber],
      [{ ...ok, odgovoran: 'nije-niz' }, 400, 'odgovoran', CLUSTERS.required],
      [{ ...ok, odgovoran: ['nije-id'] }, 400, 'odgovoran.0', CLUSTERS.required],
      [{ ...ok, odgovoran: [NO_ID] }, 400, 'odgovoran', USERS.invalidOption],
      [{ ...ok, odgovoran: [tree.leaf.id, adminGroup.id] }, 400, 'odgovoran', USERS.invalidOption],
      [{ ...ok, naselja: [NO_ID] }, 400, 'naselja', USERS.invalidOption],
      [{ ...ok, usputnaNaselja: [s[0]?.id, NO_ID] }, 400, 'usputnaNaselja', USERS.invalidOption],
      [{ ...ok, naselja: [s[0]?.id, s[1]?.id], usputnaNaselja: [s[1]?.id] }, 400, 'usputnaNaselja', CLUSTER_TEXTS.settlementsOverlap],
      [{ ...ok, ugovor: finished.id }, 400, 'ugovor', CLUSTERS.chooseContract],
      [{ ...ok, ugovor: typed.id }, 400, 'ugovor', CLUSTERS.chooseContract],
      [{ ...ok, ugovor: NO_ID }, 400, 'ugovor', CLUSTERS.chooseContract],
      [{ ...ok, ugovor: 'abc' }, 400, 'ugovor', expect.any(String)],
      [{ naziv: 'KREMNA jug' }, 409, 'naziv', CLUSTER_TEXTS.nameTaken],
      [{ naziv: ' kremna JUG ' }, 409, 'naziv', CLUSTER_TEXTS.nameTaken],
    ];
    for (const [payload, status, field, text] of cases) {
      const res = await call('POST', '/api/location', adminToken, payload);
      expect(res.statusCode, `${JSON.stringify(payload)} ${res.body}`).toBe(status);
      expect(res.json().errors?.[field], `${JSON.stringify(payload)} ${res.body}`).toEqual(typeof text === 'string' ? said(text) : text);
    }
    const contractRes = await call('POST', '/api/location', adminToken, { ...ok, ugovor: finished.id });
    expect(contractRes.json()).toEqual({ message: said(CLUSTERS.chooseContract), errors: { ugovor: said(CLUSTERS.chooseContract) } });
    expect((await call('POST', '/api/location', adminToken, { naziv: 'kremna jug' })).json().message).toBe(
      'Кластер са тим називом већ постоји.',
    );
    expect(await clusterCount()).toBe(before);
  });

  it('is Admin only', async () => {
    expect((await call('POST', '/api/location', managerToken, { naziv: 'Rukovodiočev' })).statusCode).toBe(403);
  });
});

describe('PATCH /api/location/:id', () => {
  it('replaces the cluster with the form’s payload: groups, settlements, numbers, contract (moved, kept when left out, cleared)', async () => {
    const c = await createCluster(t.db, {
      naziv: 'Mokra Gora',
      groupIds: [tree.leaf.id],
      naselja: [s[0]?.id as string],
      indikativnaDuzinaKlastera: 4,
      contract: active,
    });
    const edited = await call('PATCH', `/api/location/${c.id}`, adminToken, {
      naziv: 'MOKRA GORA',
      odgovoran: [tree.other.id],
      ugovor: active2.id,
      ugovorenaVrednostKlastera: 99.5,
      naselja: [s[2]?.id, s[3]?.id],
      usputnaNaselja: [s[0]?.id],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().message).toBe(said(CLUSTERS.edited));
    const location = edited.json().location;
    expect(location).toMatchObject({
      _id: c.id,
      naziv: 'MOKRA GORA',
      odgovoran: [expect.objectContaining({ _id: tree.other.id })],
      ugovor: expect.objectContaining({ _id: active2.id }),
      indikativnaDuzinaKlastera: null,
      ugovorenaVrednostKlastera: 99.5,
    });
    expect(ids(location.naselja)).toEqual([s[2]?.id, s[3]?.id]);
    expect(ids(location.usputnaNaselja)).toEqual([s[0]?.id]);
    const links = await t.db.select().from(contractClusters).where(eq(contractClusters.clusterId, c.id));
    expect(links.map((l) => l.contractId)).toEqual([active2.id]);

    const kept = await call('PATCH', `/api/location/${c.id}`, adminToken, { naziv: 'Mokra Gora' });
    expect(kept.json().location.ugovor?._id).toBe(active2.id);
    const cleared = await call('PATCH', `/api/location/${c.id}`, adminToken, { naziv: 'Mokra Gora', ugovor: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().location).toMatchObject({ ugovor: null, odgovoran: [], naselja: [], usputnaNaselja: [] });
    expect(await t.db.select().from(contractClusters).where(eq(contractClusters.clusterId, c.id))).toEqual([]);
  });

  it('keeps other kinds of contract links and a finished general contract; refuses leaving a finished one', async () => {
    const c = await createCluster(t.db, { naziv: 'Drežnik', contract: finished });
    await linkClusterToContract(t.db, typed, c.id);
    const kept = await call('PATCH', `/api/location/${c.id}`, adminToken, { naziv: 'Drežnik Gornji', ugovor: finished.id });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().location).toMatchObject({
      ugovor: expect.objectContaining({ _id: finished.id, status: 'Završen' }),
      ugovori: { contractNad: expect.objectContaining({ _id: typed.id, route: 'contractNad' }), contractIzv: null, contractPro: null },
    });
    for (const ugovor of ['', active.id]) {
      const left = await call('PATCH', `/api/location/${c.id}`, adminToken, { naziv: 'Drežnik X', ugovor });
      expect(left.statusCode).toBe(400);
      expect(left.json()).toEqual({
        message: said(CLUSTER_TEXTS.finishedContract),
        errors: { ugovor: said(CLUSTER_TEXTS.finishedContract) },
      });
    }
    const [row] = await t.db.select().from(clusters).where(eq(clusters.id, c.id));
    expect(row?.naziv).toBe('Drežnik Gornji');
  });

  it('refuses a name another cluster has, and a missing or malformed id', async () => {
    await createCluster(t.db, { naziv: 'Bioska' });
    const c = await createCluster(t.db, { naziv: 'Kršanje' });
    const taken = await call('PATCH', `/api/location/${c.id}`, adminToken, { naziv: 'bioska' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(said(CLUSTER_TEXTS.nameTaken));
    expect((await call('PATCH', `/api/location/${NO_ID}`, adminToken, { naziv: 'X' })).statusCode).toBe(404);
    expect((await call('PATCH', '/api/location/12', adminToken, { naziv: 'X' })).statusCode).toBe(400);
  });

  it('lets a Rukovodilac edit a visible cluster within their subtree; foreign groups stay, the contract is not theirs to change', async () => {
    const c = await createCluster(t.db, { naziv: 'Stublo', groupIds: [tree.leaf.id, tree.other.id], contract: active });
    const res = await call('PATCH', `/api/location/${c.id}`, managerToken, {
      naziv: 'Stublo Gornje',
      odgovoran: [tree.mid.id],
      ugovor: '',
      naselja: [s[3]?.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    const location = res.json().location;
    expect(new Set(ids(location.odgovoran))).toEqual(new Set([tree.mid.id, tree.other.id]));
    expect(location.ugovor?._id).toBe(active.id);

    const foreign = await call('PATCH', `/api/location/${c.id}`, managerToken, { naziv: 'Stublo', odgovoran: [tree.mid.id, tree.root.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual({ odgovoran: said(USERS.invalidOption) });
    const groupsNow = await t.db.select().from(clusterGroups).where(eq(clusterGroups.clusterId, c.id));
    expect(new Set(groupsNow.map((g) => g.groupId))).toEqual(new Set([tree.mid.id, tree.other.id]));
  });

  it('answers 404 to a Rukovodilac for a cluster they can’t see, and changes nothing', async () => {
    const c = await createCluster(t.db, { naziv: 'Tuđi klaster', groupIds: [tree.leaf.id] });
    const res = await call('PATCH', `/api/location/${c.id}`, otherManagerToken, { naziv: 'Preuzet' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(said(COMMON.notFound));
    const [row] = await t.db.select().from(clusters).where(eq(clusters.id, c.id));
    expect(row?.naziv).toBe('Tuđi klaster');
    expect((await call('PATCH', `/api/location/${c.id}`, leafToken, { naziv: 'Zaposleni' })).statusCode).toBe(403);
  });
});

describe('DELETE /api/location/:id', () => {
  it('deletes the cluster with its links (Admin only)', async () => {
    const c = await createCluster(t.db, {
      naziv: 'Za brisanje',
      groupIds: [tree.leaf.id],
      naselja: [s[0]?.id as string],
      contract: active,
    });
    expect((await call('DELETE', `/api/location/${c.id}`, managerToken)).statusCode).toBe(403);
    const res = await call('DELETE', `/api/location/${c.id}`, adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: said(CLUSTERS.deleted) });
    expect(await t.db.select().from(clusters).where(eq(clusters.id, c.id))).toEqual([]);
    expect(await t.db.select().from(clusterSettlements).where(eq(clusterSettlements.clusterId, c.id))).toEqual([]);
    expect(await t.db.select().from(contractClusters).where(eq(contractClusters.clusterId, c.id))).toEqual([]);
    expect((await call('DELETE', `/api/location/${c.id}`, adminToken)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/location/nije-id', adminToken)).statusCode).toBe(400);
  });
});
