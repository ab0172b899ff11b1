import { randomUUID } from 'node:crypto';
import { COMMON } from '@trasa/domain';
import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs, idempotencyKeys, users } from '../../db/schema.js';
import { activityComments } from '../../db/schema-activities.js';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, removeOldKeys } from '../../platform/idempotency.js';
import { driveCluster } from '../../seed/drive.js';
import { createUser, tokenFor } from '../../seed/factories.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { multipartBody } from '../contracts/testDocuments.js';
import { activityRow, client, createTeam, pdf, type Team } from './testing.js';

/**
 * A change sent with an Idempotency-Key is applied once per user and key (platform/idempotency.ts): the
 * three requests the web's queue sends — activity data, a comment, an upload.
 */
const t = useTestApp();
let team: Team;
let api: ReturnType<typeof client>;
let clusterId: string;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  team = await createTeam(t, 'Jednom');
  clusterId = team.cluster.id;
  api = client(t, clusterId);
  // A4 in progress: its data and documents (izv); comments on A5 (any state).
  await driveCluster({ db: t.db, store: activityFileStore(t.ctx.config.dataDir) }, clusterId, { until: 'A3' });
});

const logs = async (pattern: string) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLogs).where(like(auditLogs.message, pattern)))[0]?.n ?? 0;

async function commentsSaying(text: string): Promise<number> {
  const id = await api.idOf('A5');
  const rows = await t.db
    .select({ id: activityComments.id })
    .from(activityComments)
    .where(and(eq(activityComments.activityId, id), eq(activityComments.komentar, text)));
  return rows.length;
}

const comment = async (token: string, text: string, key?: string) =>
  t.call({
    method: 'POST',
    url: `/api/comment/${await api.idOf('A5')}`,
    token,
    headers: key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key },
    payload: { komentar: text },
  });

const data = async (token: string, vrednost: string, key: string) =>
  t.call({
    method: 'PATCH',
    url: `/api/activity/${await api.idOf('A4')}`,
    token,
    headers: { [IDEMPOTENCY_HEADER]: key },
    payload: { podaci: [{ key: 'Datum', vrednost }] },
  });

async function upload(token: string, name: string, key: string) {
  const row = await activityRow(t, clusterId, 'A4');
  const form = await multipartBody({ isRequiredFile: 'false' }, [pdf(name)]);
  return t.call({
    method: 'PATCH',
    url: `/api/activity/A4/${clusterId}/${row.id}/false/${row.version}/false`,
    token,
    payload: form.payload,
    headers: { ...form.headers, [IDEMPOTENCY_HEADER]: key },
  });
}

describe('a change sent again with the same Idempotency-Key', () => {
  it('a comment: written once, the same answer again marked as replayed, one log line', async () => {
    const key = randomUUID();
    const first = await comment(team.tokens.nad, 'Jednom samo.', key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers[REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
    const again = await comment(team.tokens.nad, 'Jednom samo.', key.toUpperCase());
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers[REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await commentsSaying('Jednom samo.')).toBe(1);
    expect(await logs('%je komentarisao aktivnost A5 na klasteru Zlatibor Jednom.')).toBe(1);
    // Without a key, as before: each request is a comment.
    for (let i = 0; i < 2; i++) expect((await comment(team.tokens.nad, 'Bez ključa.')).statusCode).toBe(201);
    expect(await commentsSaying('Bez ključa.')).toBe(2);
  });

  it('activity data: saved once, the same answer again', async () => {
    const key = randomUUID();
    const before = await logs('%sačuvao podatke%aktivnosti A4 na klasteru Zlatibor Jednom%');
    const first = await data(team.tokens.izv, today, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await data(team.tokens.izv, today, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await logs('%sačuvao podatke%aktivnosti A4 na klasteru Zlatibor Jednom%')).toBe(before + 1);
  });

  it('an upload: one stored document, the same answer again', async () => {
    const key = randomUUID();
    const first = await upload(team.tokens.izv, 'Jednom.pdf', key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await upload(team.tokens.izv, 'Jednom.pdf', key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await api.liveFiles('A4')).filter((f) => f.originalnoIme === 'Jednom.pdf')).toHaveLength(1);
  });

  it('two at once: applied once, the other told to try again later (503) or given the same answer', async () => {
    const key = randomUUID();
    const answers = await Promise.all([comment(team.tokens.nad, 'Istovremeno.', key), comment(team.tokens.nad, 'Istovremeno.', key)]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect([
      [201, 201],
      [201, 503],
    ]).toContainEqual(codes);
    for (const busy of answers.filter((r) => r.statusCode === 503)) {
      expect(busy.json().message).toBe(said(COMMON.idempotencyBusy));
      expect(busy.headers['retry-after']).toBe('5');
    }
    expect(await commentsSaying('Istovremeno.')).toBe(1);
    // Once the first is done, a repeat gets its answer.
    const later = await comment(team.tokens.nad, 'Istovremeno.', key);
    expect(later.statusCode).toBe(201);
    expect(later.body).toBe(answers.find((r) => r.statusCode === 201)?.body);
  });

  it("is another user's own: the same key from two users is two changes", async () => {
    const key = randomUUID();
    expect((await comment(team.tokens.nad, 'Isti ključ.', key)).statusCode).toBe(201);
    const other = await comment(team.tokens.manager, 'Isti ključ.', key);
    expect(other.statusCode).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await commentsSaying('Isti ključ.')).toBe(2);
  });

  it('a refused change keeps no record: sent again, it is applied as new', async () => {
    const key = randomUUID();
    const refused = await t.call({
      method: 'POST',
      url: `/api/comment/${await api.idOf('A5')}`,
      token: team.tokens.nad,
      headers: { [IDEMPOTENCY_HEADER]: key },
      payload: { komentar: 'Kasnije.', stanje: { status: 'Završena', revizija: 99 } },
    });
    expect(refused.statusCode).toBe(409);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
    expect((await comment(team.tokens.nad, 'Kasnije.', key)).statusCode).toBe(201);
    expect(await commentsSaying('Kasnije.')).toBe(1);
  });

  it('a claim left by a stopped request is taken over after a minute', async () => {
    const key = randomUUID();
    const user = await createUser(t.db, { groupId: team.groups.nad.id, ime: 'Prekinut' });
    const token = await tokenFor(t.ctx, user);
    const url = `/api/comment/${await api.idOf('A5')}`;
    await t.db.insert(idempotencyKeys).values({ userId: user.id, key, request: `POST ${url}` });
    const busy = await comment(token, 'Preuzeto.', key);
    expect(busy.statusCode).toBe(503);
    expect(busy.json().message).toBe(said(COMMON.idempotencyBusy));
    expect(busy.headers['retry-after']).toBe('5');
    expect(await commentsSaying('Preuzeto.')).toBe(0);
    await t.db.update(idempotencyKeys).set({ startedAt: sql`now() - interval '61 seconds'` }).where(eq(idempotencyKeys.key, key));
    expect((await comment(token, 'Preuzeto.', key)).statusCode).toBe(201);
    expect(await commentsSaying('Preuzeto.')).toBe(1);
  });

  it('the same key for another request is refused (422); nothing is applied', async () => {
    const key = randomUUID();
    expect((await comment(team.tokens.nad, 'Prvi zahtev.', key)).statusCode).toBe(201);
    const other = await data(team.tokens.nad, today, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(said(COMMON.idempotencyKeyReused));
  });

  it('a repeat is not answered to someone who no longer sees the activity', async () => {
    const key = randomUUID();
    const leaving = await createUser(t.db, { groupId: team.groups.nar.id, ime: 'Premešten' });
    const token = await tokenFor(t.ctx, leaving);
    expect((await comment(token, 'Pre premeštaja.', key)).statusCode).toBe(201);
    // Moved to a group that does not see the cluster: the repeat is refused as any request would be.
    await t.db.update(users).set({ groupId: team.groups.sibling.id }).where(eq(users.id, leaving.id));
    const again = await comment(token, 'Pre premeštaja.', key);
    expect(again.statusCode, again.body).toBe(404);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await commentsSaying('Pre premeštaja.')).toBe(1);
  });

  it('a key that is not a UUID: 400 in Serbian, nothing changed', async () => {
    for (const bad of ['nije-uuid', '', '123', `${randomUUID()}x`, 'ðŸ’¥']) {
      const res = await api.refused(() => comment(team.tokens.nad, 'Loš ključ.', bad), 400, COMMON.idempotencyKeyInvalid);
      expect(res.json().errors).toEqual({ [IDEMPOTENCY_HEADER]: said(COMMON.idempotencyKeyInvalid) });
    }
    const lat = await t.call({
      method: 'PATCH',
      url: `/api/activity/${await api.idOf('A4')}`,
      token: team.tokens.izv,
      headers: { [IDEMPOTENCY_HEADER]: 'x', 'x-trasa-pismo': 'lat' },
      payload: { podaci: [{ key: 'Datum', vrednost: today }] },
    });
    expect(lat.statusCode).toBe(400);
    expect(lat.json().message).toBe(COMMON.idempotencyKeyInvalid);
    expect((await upload(team.tokens.izv, 'Loš.pdf', 'x')).statusCode).toBe(400);
    expect((await api.liveFiles('A4')).filter((f) => f.originalnoIme === 'Loš.pdf')).toHaveLength(0);
    expect(await commentsSaying('Loš ključ.')).toBe(0);
  });

  it('the OpenAPI document names the optional header on the three routes', async () => {
    const doc = (await t.call({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>;
    };
    const headerOf = (path: string, method: string) =>
      doc.paths[path]?.[method]?.parameters?.find((p) => p.in === 'header' && p.name === IDEMPOTENCY_HEADER);
    for (const [path, method] of [
      ['/api/activity/{id}', 'patch'],
      ['/api/comment/{id}', 'post'],
      ['/api/activity/{type}/{locationId}/{activityId}/{controlFlag}/{version}/{requiredFlag}', 'patch'],
    ] as const) {
      expect(headerOf(path, method), `${method} ${path}`).toMatchObject({ required: false });
    }
  });

  it('answers are kept for seven days, then removed', async () => {
    const user = await createUser(t.db, { groupId: team.groups.nad.id, ime: 'Stari' });
    const [old, recent] = [randomUUID(), randomUUID()];
    await t.db.insert(idempotencyKeys).values([
      { userId: user.id, key: old, request: 'POST /x', status: 201, answer: {}, startedAt: sql`now() - interval '7 days 1 minute'` },
      { userId: user.id, key: recent, request: 'POST /x', status: 201, answer: {}, startedAt: sql`now() - interval '6 days'` },
    ]);
    expect(await removeOldKeys(t.db)).toBeGreaterThanOrEqual(1);
    const left = await t.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, user.id));
    expect(left).toEqual([{ key: recent }]);
  });
});
