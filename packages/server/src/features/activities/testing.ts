import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { said, type TestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { activities, activityFiles, ijoHolders } from '../../db/schema-activities.js';
import { createCluster, createContract, createGroup, createSettlement, createUser, tokenFor } from '../../seed/factories.js';
import { type FilePart, minimalDocx, multipartBody, samplePdf } from '../contracts/testDocuments.js';

/**
 * Test fixtures of the activity workflow: one organisation per responsible party, employees, a
 * Rukovodilac and an Admin, a cluster under a general contract with two settlements, and HTTP helpers.
 * Shared by the activity, file and comment tests (not a test file itself).
 */
export type Team = Awaited<ReturnType<typeof createTeam>>;

export async function createTeam(t: TestApp, tag: string) {
  const nar = await createGroup(t.db, { naziv: `Ministarstvo ${tag}`, type: 'NARUCILAC' });
  const izv = await createGroup(t.db, { naziv: `Izvođač ${tag}`, type: 'IZVODJAC' });
  const izvTim = await createGroup(t.db, { naziv: `Izvođač ${tag} Tim`, type: 'IZVODJAC', parentId: izv.id });
  const nad = await createGroup(t.db, { naziv: `Nadzor ${tag}`, type: 'NADZOR' });
  const piu = await createGroup(t.db, { naziv: `PIU ${tag}`, type: 'PIU_TA' });
  const sibling = await createGroup(t.db, { naziv: `Drugi izvođač ${tag}`, type: 'IZVODJAC' });
  const token = async (spec: Parameters<typeof createUser>[1]) => tokenFor(t.ctx, await createUser(t.db, spec));
  const tokens = {
    nar: await token({ groupId: nar.id, ime: 'Nada', prezime: 'Naručić' }),
    izv: await token({ groupId: izvTim.id, ime: 'Ivan', prezime: 'Izvođić' }),
    nad: await token({ groupId: nad.id, ime: 'Nenad', prezime: 'Nadzorić' }),
    piu: await token({ groupId: piu.id, ime: 'Petra', prezime: 'Piuić' }),
    sibling: await token({ groupId: sibling.id }),
    manager: await token({ role: 'Rukovodilac', groupId: izv.id }),
    admin: await token({ role: 'Admin' }),
  };
  const contract = await createContract(t.db, { naziv: `Ugovor ${tag}` });
  const s1 = await createSettlement(t.db, { naziv: `Sirogojno ${tag}` });
  const s2 = await createSettlement(t.db, { naziv: `Rožanstvo ${tag}` });
  const road = await createSettlement(t.db, { naziv: `Usputno ${tag}` });
  const cluster = await createCluster(t.db, {
    naziv: `Zlatibor ${tag}`,
    groupIds: [nar.id, izv.id, nad.id, piu.id],
    naselja: [s1.id, s2.id],
    usputnaNaselja: [road.id],
    contract,
  });
  return { groups: { nar, izv, izvTim, nad, piu, sibling }, tokens, contract, settlements: [s1, s2], cluster };
}

export async function createHolder(t: TestApp, naziv: string, odgovoran = 'Izvođač') {
  const [row] = await t.db.insert(ijoHolders).values({ naziv, odgovoran }).returning();
  if (!row) throw new Error('holder not created');
  return row;
}

export async function activityRow(t: TestApp, clusterId: string, code: string) {
  const [row] = await t.db
    .select()
    .from(activities)
    .where(and(eq(activities.clusterId, clusterId), eq(activities.code, code)));
  if (!row) throw new Error(`no ${code}`);
  return row;
}

/** Everything a refusal must leave alone: the cluster's activities, its files and the audit trail. */
export async function snapshot(t: TestApp, clusterId: string) {
  const rows = await t.db.select().from(activities).where(eq(activities.clusterId, clusterId)).orderBy(asc(activities.position));
  const files = await t.db
    .select({ id: activityFiles.id, deleted: activityFiles.deletedAt })
    .from(activityFiles)
    .innerJoin(activities, eq(activities.id, activityFiles.activityId))
    .where(eq(activities.clusterId, clusterId))
    .orderBy(asc(activityFiles.id));
  const [audit] = await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLogs);
  return { rows, files, audit: audit?.n ?? 0 };
}

export type Res = Awaited<ReturnType<TestApp['call']>>;

export function client(t: TestApp, clusterId: string) {
  const ids = new Map<string, string>();
  const idOf = async (code: string) => {
    let id = ids.get(code);
    if (!id) {
      id = (await activityRow(t, clusterId, code)).id;
      ids.set(code, id);
    }
    return id;
  };
  const api = {
    idOf,
    get: async (token: string, code: string) => t.call({ method: 'GET', url: `/api/activity/${await idOf(code)}`, token }),
    status: async (token: string, code: string, status: string) =>
      t.call({ method: 'POST', url: '/api/activity/activity-status/', token, payload: { status, activityId: await idOf(code) } }),
    control: async (token: string, code: string, faults: boolean) =>
      t.call({ method: 'POST', url: '/api/activity/control/', token, payload: { faults, ctrlId: await idOf(code) } }),
    /** `stanje`: the state the change was made on (absent: not sent). */
    data: async (token: string, code: string, podaci: unknown[], stanje?: unknown) =>
      t.call({
        method: 'PATCH',
        url: `/api/activity/${await idOf(code)}`,
        token,
        payload: { podaci, ...(stanje !== undefined && { stanje }) },
      }),
    upload: async (
      token: string,
      code: string,
      files: FilePart[],
      opts: {
        userInput?: string;
        isRequired?: boolean;
        version?: number;
        type?: string;
        locationId?: string;
        /** The state the upload was made on, sent in the query. */
        stanje?: { status: string; revizija: number };
      } = {},
    ) => {
      const row = await activityRow(t, clusterId, code);
      const entry = { kontrolna: code.includes('.') || code === 'A24' };
      const fields: Record<string, string> = { isRequiredFile: String(opts.isRequired ?? true) };
      if (opts.userInput !== undefined) fields.userInput = opts.userInput;
      const form = await multipartBody(fields, files);
      const url = `/api/activity/${encodeURIComponent(opts.type ?? code)}/${opts.locationId ?? clusterId}/${row.id}/${entry.kontrolna}/${opts.version ?? row.version}/${opts.isRequired ?? true}${
        opts.stanje ? `?status=${encodeURIComponent(opts.stanje.status)}&revizija=${opts.stanje.revizija}` : ''
      }`;
      return t.call({ method: 'PATCH', url, token, ...form });
    },
    comment: async (token: string, code: string, komentar?: unknown, stanje?: unknown) =>
      t.call({
        method: 'POST',
        url: `/api/comment/${await idOf(code)}`,
        token,
        payload: { ...(komentar !== undefined && { komentar }), ...(stanje !== undefined && { stanje }) },
      }),
    /** The answer must be `status`; the message (when given) too. */
    ok: (res: Res, status = 200) => {
      expect(res.statusCode, res.body).toBe(status);
      return res.json();
    },
    /** Refused with `status` (and `message`), leaving the cluster exactly as it was. */
    refused: async (attempt: () => Promise<Res>, status: number, message?: string) => {
      const before = await snapshot(t, clusterId);
      const res = await attempt();
      expect(res.statusCode, res.body).toBe(status);
      if (message !== undefined) expect(res.json().message).toBe(said(message));
      expect(await snapshot(t, clusterId)).toEqual(before);
      return res;
    },
    liveFiles: async (code: string) =>
      t.db
        .select()
        .from(activityFiles)
        .where(and(eq(activityFiles.activityId, await idOf(code)), isNull(activityFiles.deletedAt)))
        .orderBy(asc(activityFiles.createdAt)),
  };
  return api;
}

export const pdf = (name = 'dokument.pdf', field = 'fajl1'): FilePart => ({
  field,
  name,
  content: samplePdf(name),
  type: 'application/pdf',
});
export const docx = (name = 'zapisnik.docx', field = 'fajl1'): FilePart => ({ field, name, content: minimalDocx(name) });
