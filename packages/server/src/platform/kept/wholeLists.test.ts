import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createCluster, createContract, createGroup, createGroupType, createUser, tokenFor } from '../../seed/factories.js';
import { ensureDatabase } from '../ensureDatabase.js';
import { WHOLE_LIST_LIMIT } from './answers.js';

/**
 * The pickers' whole lists (GET /api/location?limit=1000, GET /api/group?limit=50000) are kept by the
 * server under the caller's scope and a data version read from PostgreSQL (migration 0020). Here the kept
 * answer is compared, after every kind of change it is built from, with the same list asked at a page size
 * below WHOLE_LIST_LIMIT (built fresh on every request) — through the instance that made the change and
 * through a second instance on the same database, each with its own cache; callers of different scopes
 * never get each other's list.
 */
const one = {} as TestApp;
const two = {} as TestApp;
let dataDir: string;
let tok: { admin: string; manager: string; employee: string; stranger: string; buyer: string };
let ids: {
  buyers: string;
  top: string;
  mine: string;
  theirs: string;
  type: string;
  contract: string;
  cluster: string;
  shared: string;
  izv: string;
};

const run = (t: TestApp, text: string) => t.db.execute(sql.raw(text));
/** A data version's counter (report_cache_state), read through `t`'s pool. */
const versionOf = async (t: TestApp, name: string) =>
  BigInt((await t.db.execute<{ v: string }>(sql`select version::text as v from report_cache_state where name = ${name}`)).rows[0]?.v ?? -1);

beforeAll(async () => {
  const url = await ensureDatabase(inject('pgAdminUrl'), `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`, inject('templateDb'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-kept-lists-'));
  const secret = randomBytes(32).toString('hex');
  await startTestApp(one, url, { secret, dataDir });
  await startTestApp(two, url, { secret, dataDir });
  const db = one.db;
  const type = await createGroupType(db, { naziv: 'Tip za keš' });
  const top = await createGroup(db, { naziv: 'Keš vrh', type: 'IZVODJAC' });
  const mine = await createGroup(db, { naziv: 'Keš moja', type: 'IZVODJAC', parentId: top.id });
  const theirs = await createGroup(db, { naziv: 'Keš tuđa', type: 'PROJEKTANT' });
  const buyers = await createGroup(db, { naziv: 'Keš naručilac', type: 'NARUCILAC' });
  const contract = await createContract(db, { naziv: 'Keš ugovor', broj: 'KL-1', datumPocetka: '2025-01-15', rokTrajanja: 365 });
  const cluster = await createCluster(db, { naziv: 'Keš Čačak', groupIds: [mine.id], contract: { id: contract.id, kind: 'contract' } });
  const shared = await createCluster(db, { naziv: 'Keš Šabac', groupIds: [theirs.id, buyers.id] });
  await createCluster(db, { naziv: 'Keš Užice' });
  // A contractor's contract of the top group: the employee (a team under it) reads it, the stranger only
  // once their group is moved under the top one (readableContractCondition follows the tree).
  const izv = await createContract(db, { kind: 'contractIzv', naziv: 'Keš izvođenje', broj: 'KL-I-1', groupIds: [top.id] });
  ids = {
    buyers: buyers.id,
    top: top.id,
    mine: mine.id,
    theirs: theirs.id,
    type: type.id,
    contract: contract.id,
    cluster: cluster.id,
    shared: shared.id,
    izv: izv.id,
  };
  const admin = await createUser(db, { role: 'Admin' });
  const manager = await createUser(db, { role: 'Rukovodilac', groupId: top.id });
  const employee = await createUser(db, { role: 'Zaposleni', groupId: mine.id });
  const stranger = await createUser(db, { role: 'Zaposleni', groupId: theirs.id });
  const buyer = await createUser(db, { role: 'Zaposleni', groupId: buyers.id });
  tok = {
    admin: await tokenFor(one.ctx, admin),
    manager: await tokenFor(one.ctx, manager),
    employee: await tokenFor(one.ctx, employee),
    stranger: await tokenFor(one.ctx, stranger),
    buyer: await tokenFor(one.ctx, buyer),
  };
});

afterAll(async () => {
  for (const t of [one, two]) {
    await t.app?.close();
    await t.db?.$client.end();
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Who = keyof typeof tok;
type A13Row = { _id: string; lokacija: { _id: string; naziv: string }; status: boolean };
const same = (answer: unknown) => answer;
const LISTS = [
  {
    whole: '/api/location?page=1&limit=1000',
    fresh: `/api/location?page=1&limit=${WHOLE_LIST_LIMIT - 1}`,
    who: ['admin', 'manager', 'employee', 'stranger', 'buyer'],
    as: same,
  },
  { whole: '/api/group?page=1&limit=50000', fresh: `/api/group?page=1&limit=${WHOLE_LIST_LIMIT - 1}`, who: ['admin', 'manager'], as: same },
  // The A13 screen's whole list against its paged list (built fresh), narrowed to get-all's fields.
  {
    whole: '/api/a13/get-all',
    fresh: '/api/A13?page=1&limit=999',
    who: ['admin', 'buyer'],
    as: (answer: unknown) => ({ a13: (answer as { a13: A13Row[] }).a13.map(({ _id, lokacija, status }) => ({ _id, lokacija, status })) }),
  },
  // The contracts' pickers (built on every request, not kept: compared all the same): the general list,
  // and a typed one whose rows depend on the reader's group lineage.
  { whole: '/api/contract?page=1&limit=1000', fresh: `/api/contract?page=1&limit=${WHOLE_LIST_LIMIT - 1}`, who: ['admin'], as: same },
  {
    whole: '/api/contractIzv?page=1&limit=1000',
    fresh: `/api/contractIzv?page=1&limit=${WHOLE_LIST_LIMIT - 1}`,
    who: ['admin', 'employee', 'stranger'],
    as: same,
  },
] as const;

async function get(t: TestApp, url: string, who: Who, brotli = false) {
  const res = await t.call({ method: 'GET', url, token: tok[who], headers: brotli ? { 'accept-encoding': 'br' } : {} });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  if (brotli && res.headers['content-encoding'] === 'br') return JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8'));
  return res.json();
}

/** Every whole list, for every caller, through both instances (plain and brotli): equal to the fresh page. */
async function expectCurrent(label: string) {
  for (const list of LISTS) {
    for (const who of list.who) {
      const fresh = list.as(await get(one, list.fresh, who));
      for (const [name, t] of [
        ['one', one],
        ['two', two],
      ] as const) {
        expect(await get(t, list.whole, who), `${label}: ${list.whole} as ${who} through ${name}`).toEqual(fresh);
        expect(await get(t, list.whole, who, true), `${label}: ${list.whole} (br) as ${who} through ${name}`).toEqual(fresh);
      }
    }
  }
}

const names = (answer: { locations?: { naziv: string }[]; groups?: { naziv: string }[]; contractsIzv?: { naziv: string }[] }) =>
  (answer.locations ?? answer.groups ?? answer.contractsIzv ?? []).map((x) => x.naziv);

describe('whole lists kept by data version', () => {
  it('answers each caller their own list, kept, equal to one built fresh', async () => {
    await expectCurrent('at the start');
    const admin = names(await get(one, LISTS[0].whole, 'admin'));
    expect(admin).toEqual(expect.arrayContaining(['Keš Čačak', 'Keš Šabac', 'Keš Užice']));
    expect(names(await get(two, LISTS[0].whole, 'employee'))).toEqual(['Keš Čačak']);
    expect(names(await get(two, LISTS[0].whole, 'stranger'))).toEqual(['Keš Šabac']);
    expect(names(await get(one, LISTS[0].whole, 'manager'))).toEqual(['Keš Čačak']);
    expect(names(await get(one, LISTS[1].whole, 'manager')).sort()).toEqual(['Keš moja', 'Keš vrh']);
    expect(names(await get(one, LISTS[4].whole, 'employee'))).toEqual(['Keš izvođenje']);
    expect(names(await get(two, LISTS[4].whole, 'stranger'))).toEqual([]);
  });

  describe('shows every change a list is built from on the next request, through either instance', () => {
    // Each change a case of its own, in this order (each builds on the ones before it); the statement is
    // read when its case runs, after beforeAll has made the rows it names.
    const changes: [string, () => string][] = [
      ['a cluster renamed', () => `update clusters set naziv = 'Keš Čačak 2' where id = '${ids.cluster}'`],
      ['a cluster linked to a group', () => `insert into cluster_groups (cluster_id, group_id) values ('${ids.shared}', '${ids.mine}')`],
      ['a cluster unlinked', () => `delete from cluster_groups where cluster_id = '${ids.shared}' and group_id = '${ids.mine}'`],
      // Only 0033's 'visibility' moves: the stranger's group sees the contract's cluster, then no longer.
      [
        'a contract given a group that sees its cluster',
        () => `insert into contract_groups (contract_id, group_id) values ('${ids.contract}', '${ids.theirs}')`,
      ],
      [
        'that contract group taken away',
        () => `delete from contract_groups where contract_id = '${ids.contract}' and group_id = '${ids.theirs}'`,
      ],
      ['a group renamed', () => `update groups set naziv = 'Keš moja 2' where id = '${ids.mine}'`],
      ['a group moved in the tree', () => `update groups set parent_id = '${ids.top}' where id = '${ids.theirs}'`],
      ['a group given another type', () => `update groups set type_id = '${ids.type}' where id = '${ids.mine}'`],
      ['a group type renamed', () => `update group_types set naziv = 'Tip za keš 2' where id = '${ids.type}'`],
      ['a contract renamed', () => `update contracts set naziv = 'Keš ugovor 2', broj = 'KL-2' where id = '${ids.contract}'`],
      [
        'a contract late (the colour)',
        () => `update contracts set datum_pocetka = '2020-01-01', rok_trajanja = 10 where id = '${ids.contract}'`,
      ],
      [
        'a contract document added',
        () => `insert into contract_files (contract_id, stored_name, originalno_ime, mimetype, size)
        values ('${ids.contract}', 'kept-list-test', 'ugovor.pdf', 'application/pdf', 10)`,
      ],
      [
        'a contract document renamed',
        () => `update contract_files set originalno_ime = 'ugovor 2.pdf' where contract_id = '${ids.contract}'`,
      ],
      ['a contract given a group', () => `insert into contract_groups (contract_id, group_id) values ('${ids.izv}', '${ids.buyers}')`],
      ['a contract finished', () => `update contracts set status = 'Završen', datum_zavrsetka = '2025-06-01' where id = '${ids.izv}'`],
      [
        'a cluster linked to a contract',
        () => `insert into contract_clusters (contract_id, cluster_id, kind) values ('${ids.izv}', '${ids.shared}', 'contractIzv')`,
      ],
      ['a group seeing everything', () => `update groups set sve_videci = true where id = '${ids.buyers}'`],
      ['a group seeing its own again', () => `update groups set sve_videci = false where id = '${ids.buyers}'`],
      ['a contract group taken away', () => `delete from contract_groups where contract_id = '${ids.izv}' and group_id = '${ids.buyers}'`],
      [
        'a cluster linked to the buyers',
        () => `insert into cluster_groups (cluster_id, group_id) values ('${ids.cluster}', '${ids.buyers}')`,
      ],
      ['an A13 confirmed', () => `insert into a13_confirmations (cluster_id, status) values ('${ids.cluster}', true)`],
      ['an A13 undone', () => `update a13_confirmations set status = false where cluster_id = '${ids.cluster}'`],
      ['a contract unlinked', () => `delete from contract_clusters where contract_id = '${ids.contract}'`],
      ['a cluster deleted', () => `delete from clusters where naziv = 'Keš Užice'`],
    ];
    it.each(changes)('%s', async (label, statement) => {
      await run(label.includes('group') ? two : one, statement());
      await expectCurrent(label);
    });

    it('a member added to a group (its count in the groups list)', async () => {
      await createUser(two.db, { role: 'Zaposleni', groupId: ids.mine });
      await expectCurrent('a member added');
    });

    it('a new cluster and a new group', async () => {
      await createCluster(one.db, { naziv: 'Keš Novi Pazar', groupIds: [ids.mine] });
      await createGroup(two.db, { naziv: 'Keš nova', parentId: ids.top });
      await expectCurrent('a cluster and a group added');
    });

    it('contracts added and one deleted', async () => {
      // The stranger's group was moved under the top group: the contractor's contract of the top group shows.
      expect(names(await get(one, LISTS[4].whole, 'stranger'))).toEqual(['Keš izvođenje']);
      await createContract(two.db, { kind: 'contractIzv', naziv: 'Keš izvođenje 2', broj: 'KL-I-2', groupIds: [ids.mine] });
      await createContract(two.db, { naziv: 'Keš ugovor novi', broj: 'KL-3' });
      await expectCurrent('contracts added');
      await run(one, `delete from contracts where broj = 'KL-I-2'`);
      await expectCurrent('a contract deleted');
      expect(names(await get(two, LISTS[0].whole, 'employee'))).toContain('Keš Novi Pazar');
      expect(names(await get(one, LISTS[1].whole, 'manager'))).toContain('Keš nova');
    });
  });

  it('moves a version once per transaction that changes the data, never for an update that writes the same values', async () => {
    const before = {
      locations: await versionOf(one, 'locations'),
      groups: await versionOf(one, 'groups'),
    };
    // A member joining a group moves its kept count ('groups').
    await createUser(one.db, { role: 'Zaposleni', groupId: ids.mine });
    before.groups = await versionOf(one, 'groups');
    before.locations = await versionOf(one, 'locations');
    await run(one, `update clusters set naziv = naziv where id = '${ids.cluster}'`);
    await run(one, `update groups set naziv = naziv where id = '${ids.mine}'`);
    expect(await versionOf(one, 'locations')).toBe(before.locations);
    expect(await versionOf(one, 'groups')).toBe(before.groups);
    await one.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`update clusters set adresa = 'Ulica 1' where id = '${ids.cluster}'`));
      await tx.execute(sql.raw(`update clusters set adresa = 'Ulica 2' where id = '${ids.cluster}'`));
      await tx.execute(sql.raw(`update groups set kratak_naziv = 'KM' where id = '${ids.mine}'`));
    });
    expect(await versionOf(two, 'locations')).toBe(before.locations + 1n);
    expect(await versionOf(two, 'groups')).toBe(before.groups + 1n);
  });
});
