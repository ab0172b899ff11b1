import { CLUSTERS, CONTRACTS, USERS } from '@trasa/domain';
import { eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { contractClusters } from '../../db/schema-clusters.js';
import { createCluster, createContract, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { multipartBody, samplePdf } from '../contracts/testDocuments.js';

const t = useTestApp();

let admin: string;
let izv: Awaited<ReturnType<typeof createGroup>>;
let nad: Awaited<ReturnType<typeof createGroup>>;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  izv = await createGroup(t.db, { type: 'IZVODJAC' });
  nad = await createGroup(t.db, { type: 'NADZOR' });
});

const link = (route: string, contractId: string, lokacije: unknown, token = admin) =>
  t.call({ method: 'PATCH', url: `/api/link/location-to-${route}/${contractId}`, token, payload: { lokacije } });
const unlink = (suffix: string, contractId: string, lokacija: unknown, token = admin) =>
  t.call({ method: 'PATCH', url: `/api/link/unlink${suffix}/${contractId}`, token, payload: { lokacija } });
const linksOf = async (clusterId: string) =>
  (await t.db.select().from(contractClusters).where(eq(contractClusters.clusterId, clusterId)))
    .map((l) => `${l.kind}:${l.contractId}`)
    .sort();

describe('PATCH /api/link/location-to-{route}', () => {
  it('links clusters to a contract; the contract lists them', async () => {
    const contract = await createContract(t.db, { kind: 'contractIzv', groupIds: [izv.id] });
    const a = await createCluster(t.db, { naziv: 'Klaster Bor', groupIds: [izv.id] });
    const b = await createCluster(t.db, { naziv: 'Klaster Aleksinac' });
    const res = await link('contractIzv', contract.id, [a.id, b.id, a.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: said(CONTRACTS.locationAdded) });
    const dto = (await t.call({ method: 'GET', url: `/api/contractIzv/${contract.id}`, token: admin })).json().contractIzv;
    expect(dto.lokacije).toEqual([
      { _id: b.id, naziv: 'Klaster Aleksinac', status: 'Nije započet', ugovor: null, odgovoran: [] },
      { _id: a.id, naziv: 'Klaster Bor', status: 'Nije započet', ugovor: null, odgovoran: [{ _id: izv.id, naziv: izv.naziv }] },
    ]);
    // Linking again changes nothing.
    expect((await link('contractIzv', contract.id, [a.id])).statusCode).toBe(200);
    expect(await linksOf(a.id)).toEqual([`contractIzv:${contract.id}`]);
    const [log] = await t.db.select().from(auditLogs).where(like(auditLogs.message, '%povezao klastere%Klaster Bor%'));
    expect(log).toBeTruthy();
  });

  it('the general contract (:contractId) becomes the cluster’s ugovor', async () => {
    const general = await createContract(t.db, { kind: 'contract' });
    const cluster = await createCluster(t.db);
    expect((await link('contract', general.id, [cluster.id])).statusCode).toBe(200);
    const dto = (await t.call({ method: 'GET', url: `/api/contract/${general.id}`, token: admin })).json().contract;
    expect(dto.lokacije[0]).toMatchObject({ _id: cluster.id, ugovor: general.id });
    const loc = (await t.call({ method: 'GET', url: `/api/location/${cluster.id}`, token: admin })).json().location;
    expect(loc.ugovor._id).toBe(general.id);
  });

  it('moves a cluster from another contract of the same kind; other kinds keep theirs', async () => {
    const first = await createContract(t.db, { kind: 'contractIzv', groupIds: [izv.id] });
    const second = await createContract(t.db, { kind: 'contractIzv', groupIds: [izv.id] });
    const nadzor = await createContract(t.db, { kind: 'contractNad', groupIds: [nad.id] });
    const cluster = await createCluster(t.db, { contract: { id: first.id, kind: first.kind } });
    expect((await link('contractNad', nadzor.id, [cluster.id])).statusCode).toBe(200);
    const res = await link('contractIzv', second.id, [cluster.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await linksOf(cluster.id)).toEqual([`contractIzv:${second.id}`, `contractNad:${nadzor.id}`].sort());
    const firstDto = (await t.call({ method: 'GET', url: `/api/contractIzv/${first.id}`, token: admin })).json().contractIzv;
    expect(firstDto.lokacije).toEqual([]);
  });

  it('refuses a finished contract, and moving a cluster away from a finished one', async () => {
    const done = await createContract(t.db, { kind: 'contractPro', status: 'Završen', datumZavrsetka: '2025-05-01' });
    const cluster = await createCluster(t.db);
    const res = await link('contractPro', done.id, [cluster.id]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(said(CONTRACTS.finishedLink));
    expect(await linksOf(cluster.id)).toEqual([]);
    // Finished without an end date is not finished.
    const noDate = await createContract(t.db, { kind: 'contractPro', status: 'Završen' });
    expect((await link('contractPro', noDate.id, [cluster.id])).statusCode).toBe(200);

    const held = await createCluster(t.db);
    await t.db.insert(contractClusters).values({ contractId: done.id, clusterId: held.id, kind: 'contractPro' });
    const open = await createContract(t.db, { kind: 'contractPro' });
    const move = await link('contractPro', open.id, [held.id]);
    expect(move.statusCode).toBe(400);
    expect(move.json().message).toBe(said('Završen ugovor se ne može menjati.'));
    expect(await linksOf(held.id)).toEqual([`contractPro:${done.id}`]);
  });

  it('refuses unknown clusters and an empty list with nothing linked; another kind’s contract is 404', async () => {
    const contract = await createContract(t.db, { kind: 'contractNad', groupIds: [nad.id] });
    const cluster = await createCluster(t.db);
    const unknown = await link('contractNad', contract.id, [cluster.id, '00000000-0000-4000-8000-000000000000']);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: said(USERS.invalidOption), errors: { lokacije: said(USERS.invalidOption) } });
    expect(await linksOf(cluster.id)).toEqual([]);
    const empty = await link('contractNad', contract.id, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(said(CLUSTERS.required));
    expect((await link('contractNad', contract.id, ['nije-id'])).statusCode).toBe(400);
    expect((await link('contractIzv', contract.id, [cluster.id])).statusCode).toBe(404);
    expect((await link('contract', '00000000-0000-4000-8000-000000000000', [cluster.id])).statusCode).toBe(404);
    const employee = await tokenFor(t.ctx, await createUser(t.db, { groupId: nad.id }));
    expect((await link('contractNad', contract.id, [cluster.id], employee)).statusCode).toBe(403);
  });
});

describe('PATCH /api/link/unlink{suffix}', () => {
  it('unlinks a cluster; not linked is 404; a finished contract refuses', async () => {
    const contract = await createContract(t.db, { kind: 'contractNad', groupIds: [nad.id] });
    const general = await createContract(t.db, { kind: 'contract' });
    const cluster = await createCluster(t.db, { naziv: 'Klaster Zaječar', contract: { id: contract.id, kind: contract.kind } });
    await t.db.insert(contractClusters).values({ contractId: general.id, clusterId: cluster.id, kind: 'contract' });
    expect((await unlink('Izv', contract.id, cluster.id)).statusCode).toBe(404);
    const res = await unlink('Nad', contract.id, cluster.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: said(CONTRACTS.locationRemoved) });
    expect(await linksOf(cluster.id)).toEqual([`contract:${general.id}`]);
    expect((await unlink('Nad', contract.id, cluster.id)).statusCode).toBe(404);
    const [log] = await t.db.select().from(auditLogs).where(like(auditLogs.message, '%uklonio klaster Klaster Zaječar%'));
    expect(log).toBeTruthy();
    expect((await unlink('', general.id, cluster.id)).statusCode).toBe(200);
    expect(await linksOf(cluster.id)).toEqual([]);

    const done = await createContract(t.db, { kind: 'contractNad', status: 'Završen', datumZavrsetka: '2025-02-01' });
    const kept = await createCluster(t.db, { contract: { id: done.id, kind: done.kind } });
    const refused = await unlink('Nad', done.id, kept.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(said('Završen ugovor se ne može menjati.'));
    expect(await linksOf(kept.id)).toEqual([`contractNad:${done.id}`]);
    expect((await unlink('Nad', contract.id, 'nije-id')).statusCode).toBe(400);
  });
});

describe('GET /api/link/documents{suffix}/location', () => {
  let cluster: Awaited<ReturnType<typeof createCluster>>;
  let contract: Awaited<ReturnType<typeof createContract>>;
  let fileId: string;

  beforeAll(async () => {
    contract = await createContract(t.db, { kind: 'contractIzv', naziv: 'Izvođenje Pirot', broj: 'IZV-9', groupIds: [izv.id] });
    cluster = await createCluster(t.db, { contract: { id: contract.id, kind: contract.kind } });
    const form = await multipartBody({}, [{ field: 'fajl0', name: 'Уговор Пирот.pdf', content: samplePdf() }]);
    const up = await t.call({ method: 'POST', url: `/api/contractIzv/contractIzv/${contract.id}`, token: admin, ...form });
    fileId = up.json().contract.fajlovi[0]._id;
  });

  const documents = (suffix: string, locationId: string, token = admin) =>
    t.call({ method: 'GET', url: `/api/link/documents${suffix}/location?locationId=${locationId}`, token });

  it('gives the documents and the brief of the cluster’s contract of that kind', async () => {
    const res = await documents('Izv', cluster.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      fajlovi: [
        {
          _id: fileId,
          originalnoIme: 'Уговор Пирот.pdf',
          mimetype: 'application/pdf',
          size: samplePdf().length,
          createdAt: expect.any(String),
        },
      ],
      contract: {
        _id: contract.id,
        naziv: 'Izvođenje Pirot',
        broj: 'IZV-9',
        status: 'U toku',
        datumPocetka: contract.datumPocetka,
        rokTrajanja: contract.rokTrajanja,
        datumZavrsetka: null,
        rokZavrsetka: expect.any(String),
        route: 'contractIzv',
      },
    });
    for (const suffix of ['', 'Pro', 'Nad']) expect((await documents(suffix, cluster.id)).json()).toEqual({ fajlovi: [], contract: null });
  });

  it('follows the cluster’s visibility: another group’s employee gets 404', async () => {
    const own = await tokenFor(t.ctx, await createUser(t.db, { groupId: izv.id }));
    expect((await documents('Izv', cluster.id, own)).statusCode).toBe(200);
    const manager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: izv.id }));
    expect((await documents('Izv', cluster.id, manager)).statusCode).toBe(200);
    const stranger = await tokenFor(t.ctx, await createUser(t.db, { groupId: nad.id }));
    expect((await documents('Izv', cluster.id, stranger)).statusCode).toBe(404);
    expect((await documents('', cluster.id, stranger)).statusCode).toBe(404);
    const guest = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
    expect((await documents('Izv', cluster.id, guest)).statusCode).toBe(403);
    expect((await documents('Izv', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await documents('Izv', 'nije-id')).statusCode).toBe(400);
  });
});

describe('GET /api/link/get/autocomplete/locations', () => {
  it('finds every cluster by name in either script, with both scripts', async () => {
    const latin = await createCluster(t.db, { naziv: 'Čačak Centar' });
    const cyrillic = await createCluster(t.db, { naziv: 'Ужице Југ' });
    const find = async (value: string) => {
      const res = await t.call({
        method: 'GET',
        url: `/api/link/get/autocomplete/locations?value=${encodeURIComponent(value)}`,
        token: admin,
      });
      expect(res.statusCode).toBe(200);
      return res.json().locations as { _id: string; nazivLokacije: string; cyr: string; lat: string }[];
    };
    expect(await find('cacak')).toEqual([{ _id: latin.id, nazivLokacije: 'Čačak Centar', cyr: 'Чачак Центар', lat: 'Čačak Centar' }]);
    expect((await find('Чачак')).map((l) => l._id)).toEqual([latin.id]);
    expect(await find('uzice')).toEqual([{ _id: cyrillic.id, nazivLokacije: 'Ужице Југ', cyr: 'Ужице Југ', lat: 'Užice Jug' }]);
    expect((await find('')).length).toBeGreaterThanOrEqual(2);
    const employee = await tokenFor(t.ctx, await createUser(t.db, { groupId: izv.id }));
    expect((await t.call({ method: 'GET', url: '/api/link/get/autocomplete/locations?value=a', token: employee })).statusCode).toBe(403);
  });
});
