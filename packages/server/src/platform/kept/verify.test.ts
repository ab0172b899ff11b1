import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig, parseKeptOff, parseKeptVerify } from '../../config.js';
import type { AppContext } from '../../context.js';
import { createCluster, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { connect, type Db } from '../database.js';
import { ensureDatabase } from '../ensureDatabase.js';
import { createLogger } from '../logger.js';

/**
 * TRASA_KEPT_VERIFY and TRASA_KEPT_OFF on a real application. Data changed with the tables' version
 * triggers disabled (ALTER TABLE … DISABLE TRIGGER USER: the versions stay, so a kept value is still used)
 * stands for a kept query whose table has no trigger: under verify the next hit is computed afresh, differs,
 * and the request fails with a 500 whose log line names the kind and the key; with the kind switched off,
 * nothing was kept and the answer is the changed data at once.
 */
type Instance = { app: FastifyInstance; ctx: AppContext; db: Db; lines: Record<string, unknown>[] };
const verifying = {} as Instance;
const off = {} as Instance;
let dataDir: string;
let tok: { admin: string; employee: string };
let group: { id: string };

async function start(holder: Instance, url: string, env: NodeJS.ProcessEnv, secret: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const db = connect(url, 3);
  const config = { ...loadConfig(env), appUrl: 'http://trasa.test', dataDir, webDist: '/nonexistent' };
  const { app, ctx } = await buildApp({ db, config, secret, log: createLogger('error', sink) });
  await app.ready();
  Object.assign(holder, { app, ctx, db, lines });
}

beforeAll(async () => {
  const url = await ensureDatabase(inject('pgAdminUrl'), `${inject('dbPrefix')}_${randomBytes(4).toString('hex')}`, inject('templateDb'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'trasa-kept-verify-'));
  const secret = randomBytes(32).toString('hex');
  await start(verifying, url, { TRASA_KEPT_VERIFY: '1' }, secret);
  await start(off, url, { TRASA_KEPT_OFF: 'groupList,userCount' }, secret);
  const db = verifying.db;
  group = await createGroup(db, { naziv: 'Provera grupa', type: 'IZVODJAC' });
  await createCluster(db, { naziv: 'Provera svoj', groupIds: [group.id] });
  tok = {
    admin: await tokenFor(verifying.ctx, await createUser(db, { role: 'Admin' })),
    employee: await tokenFor(verifying.ctx, await createUser(db, { role: 'Zaposleni', groupId: group.id })),
  };
});

afterAll(async () => {
  for (const t of [verifying, off]) {
    await t.app?.close();
    await t.db?.$client.end();
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const call = (t: Instance, url: string, token: string) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

/** Runs `change` with the user triggers of `tables` disabled: the data changes, no version moves. */
async function behindTheTriggers(tables: string[], change: string) {
  await verifying.db.transaction(async (tx) => {
    for (const table of tables) await tx.execute(sql.raw(`alter table ${table} disable trigger user`));
    await tx.execute(sql.raw(change));
    for (const table of tables) await tx.execute(sql.raw(`alter table ${table} enable trigger user`));
  });
}

/** The logged error of the request's failure: its message names the kept value's kind and key, and so do its fields. */
function failure(t: Instance): { message: string; kind: string; key: string } {
  const line = t.lines.find((l) => l.msg === 'unhandled error') as { err?: { message: string; kind: string; key: string } } | undefined;
  if (!line?.err) throw new Error(`no error logged: ${JSON.stringify(t.lines)}`);
  return line.err;
}

describe('TRASA_KEPT_VERIFY: every hit computed again and compared', () => {
  it('answers as usual while the kept values are right', async () => {
    for (let round = 0; round < 2; round++) {
      expect((await call(verifying, '/api/location?page=1&limit=10', tok.employee)).statusCode).toBe(200);
      expect((await call(verifying, '/api/group?page=1&limit=50000', tok.admin)).statusCode).toBe(200);
      expect((await call(verifying, '/api/search/user?eng=provera&page=1&limit=10', tok.admin)).statusCode).toBe(200);
    }
    expect(verifying.lines).toEqual([]);
  });

  it("fails a request whose kept scope no longer matches its data, naming the kind 'clusterScope' and the key", async () => {
    const other = await createCluster(verifying.db, { naziv: 'Provera tuđi' });
    expect((await call(verifying, '/api/location?page=1&limit=10', tok.employee)).json().totalResults).toBe(1);
    await behindTheTriggers(['cluster_groups'], `insert into cluster_groups (cluster_id, group_id) values ('${other.id}', '${group.id}')`);
    verifying.lines.length = 0;
    const res = await call(verifying, '/api/location?page=1&limit=10', tok.employee);
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBeTruthy();
    expect(failure(verifying)).toMatchObject({ kind: 'clusterScope', key: `${group.id}:false` });
    expect(failure(verifying).message).toContain(`kind clusterScope, key ${group.id}:false`);
    // A change that moves the version: the scope is read again, and answered.
    await verifying.db.execute(sql`update cluster_groups set group_id = group_id where cluster_id = ${other.id}`);
    await verifying.db.execute(sql`delete from cluster_groups where cluster_id = ${other.id}`);
    expect((await call(verifying, '/api/location?page=1&limit=10', tok.employee)).json().totalResults).toBe(1);
  });

  it("fails a kept whole answer rebuilt different ('groupList')", async () => {
    expect((await call(verifying, '/api/group?page=1&limit=50000', tok.admin)).statusCode).toBe(200);
    await behindTheTriggers(['groups'], `update groups set naziv = 'Provera grupa preimenovana' where id = '${group.id}'`);
    verifying.lines.length = 0;
    expect((await call(verifying, '/api/group?page=1&limit=50000', tok.admin)).statusCode).toBe(500);
    expect(failure(verifying)).toMatchObject({ kind: 'groupList', key: '["group","all",1,50000,null,null]' });
    expect(failure(verifying).message).toContain('kind groupList, key ["group","all",1,50000,null,null]: the texts differ');
    expect(failure(verifying).message).toContain('Provera grupa preimenovana');
  });

  it("fails a kept search count counted again different ('userCount')", async () => {
    const url = '/api/search/user?eng=proveravam&page=1&limit=10';
    expect((await call(verifying, url, tok.admin)).json().totalResults).toBe(0);
    await behindTheTriggers(
      ['users'],
      `update users set ime = 'Proveravam' where id = (select id from users where deleted_at is null limit 1)`,
    );
    verifying.lines.length = 0;
    expect((await call(verifying, url, tok.admin)).statusCode).toBe(500);
    expect(failure(verifying)).toMatchObject({ kind: 'userCount', key: '["users","all",["proveravam"]]' });
    expect(failure(verifying).message).toContain('kind userCount, key ["users","all",["proveravam"]]: kept 0, fresh 1');
  });
});

describe('TRASA_KEPT_OFF: the named kinds keep nothing', () => {
  it('answers what the database says at once for a kind switched off, and keeps the others', async () => {
    const groupsOf = async () =>
      (await call(off, '/api/group?page=1&limit=50000', tok.admin)).json().groups.map((g: { naziv: string }) => g.naziv) as string[];
    const clustersOf = async () =>
      (await call(off, '/api/location?page=1&limit=1000', tok.admin))
        .json()
        .locations.map((c: { nazivLokacije: string }) => c.nazivLokacije);
    expect(await groupsOf()).toContain('Provera grupa preimenovana');
    const clusters = await clustersOf();
    await behindTheTriggers(['groups'], `update groups set naziv = 'Provera grupa bez keša' where id = '${group.id}'`);
    await behindTheTriggers(['clusters'], `update clusters set naziv = 'Provera svoj bez okidača' where naziv = 'Provera svoj'`);
    // groupList is off: the new name at once. clusterList is kept: the old names until its version moves.
    expect(await groupsOf()).toContain('Provera grupa bez keša');
    expect(await clustersOf()).toEqual(clusters);
    expect(off.lines).toEqual([]);
  });

  it('reads the settings as the environment gives them', () => {
    expect(parseKeptVerify(undefined)).toBe(false);
    expect(parseKeptVerify('1')).toBe(true);
    expect(parseKeptVerify('0')).toBe(false);
    expect(() => parseKeptVerify('ja')).toThrow('TRASA_KEPT_VERIFY');
    expect(parseKeptOff('all')).toBe('all');
    expect(parseKeptOff(' clusterScope, logPositions ')).toEqual(new Set(['clusterScope', 'logPositions']));
    expect(parseKeptOff('')).toEqual(new Set());
    expect(() => parseKeptOff('clusterScope,scopes')).toThrow('TRASA_KEPT_OFF names no kept kind: "scopes"');
  });
});
