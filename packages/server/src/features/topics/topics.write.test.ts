import { ACCOUNT, TOPICS } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { users } from '../../db/schema.js';
import { topicComments, topics } from '../../db/schema-clusters.js';
import { createUser, tokenFor } from '../../seed/factories.js';
import {
  adminToken,
  allSeeingToken,
  auditCount,
  call,
  drina,
  leafToken,
  listIds,
  managerToken,
  ministryId,
  NO_ID,
  open,
  otherToken,
  reservedId,
  setupTopics,
  t,
  topicRow,
  tree,
  zlatibor,
} from './topicsSetup.js';

setupTopics();

describe('POST /api/topic', () => {
  it('opens a topic on a visible cluster, priority srednji by default, written to the audit trail', async () => {
    const before = await auditCount();
    const res = await call('POST', '/api/topic', leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: '  Kvar na trasi ' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.message).toBe(said(TOPICS.created));
    expect(body.data).toMatchObject({
      nazivKlastera: 'Zlatibor Čajetina',
      locationId: zlatibor.id,
      opis: 'Kvar na trasi',
      odgovoran: { _id: tree.leaf.id, naziv: tree.leaf.naziv },
      rok: null,
      prioritet: 'srednji',
      status: 'otvoren',
      komentari: [],
      brojKomentara: 0,
    });
    expect(typeof body.data.createdAt).toBe('string');
    expect((await topicRow(body.data._id))?.createdBy).not.toBeNull();
    expect(await auditCount()).toBe(before + 1);
  });

  it('keeps a deadline and a priority', async () => {
    const data = await open(adminToken, {
      locationId: zlatibor.id,
      odgovoran: ministryId,
      rok: '2026-03-01T10:30:00+01:00',
      prioritet: 'visok',
    });
    expect(data).toMatchObject({ rok: '2026-03-01T09:30:00.000Z', prioritet: 'visok', odgovoran: { _id: ministryId } });
    const d2 = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '2026-04-02', prioritet: 'nizak' });
    expect(d2).toMatchObject({ rok: '2026-04-02T00:00:00.000Z' });
  });

  it('answers 404 for an invisible or missing cluster and 400 for a bad group, creating nothing', async () => {
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(topics))[0]?.n;
    const before = await count();
    const cases: [string, object, number, string][] = [
      [otherToken, { locationId: zlatibor.id, odgovoran: tree.other.id }, 404, TOPICS.notFound],
      [leafToken, { locationId: drina.id, odgovoran: tree.leaf.id }, 404, TOPICS.notFound],
      [adminToken, { locationId: NO_ID, odgovoran: tree.leaf.id }, 404, TOPICS.notFound],
      [adminToken, { locationId: zlatibor.id, odgovoran: NO_ID }, 400, TOPICS.groupCannotSee],
      [adminToken, { locationId: zlatibor.id, odgovoran: reservedId }, 400, TOPICS.groupCannotSee],
      // a group that does not see the cluster could never answer
      [adminToken, { locationId: zlatibor.id, odgovoran: tree.other.id }, 400, TOPICS.groupCannotSee],
      [managerToken, { locationId: zlatibor.id, odgovoran: tree.mid.id }, 400, TOPICS.groupCannotSee],
      [adminToken, { locationId: zlatibor.id }, 400, 'Поље је обавезно'],
      [adminToken, { odgovoran: tree.leaf.id }, 400, 'Поље је обавезно'],
      [adminToken, { locationId: 'x', odgovoran: tree.leaf.id }, 400, 'Поље је обавезно'],
    ];
    for (const [token, body, status, message] of cases) {
      const res = await call('POST', '/api/topic', token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(said(message));
    }
    const bad = await call('POST', '/api/topic', adminToken, { locationId: zlatibor.id, odgovoran: NO_ID });
    expect(bad.json().errors).toEqual({ odgovoran: said(TOPICS.groupCannotSee) });
    for (const body of [
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, prioritet: 'hitno' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: 'sutra' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '2026-02-30' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 5 },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '0000-01-01' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '0000-01-01T00:00:00Z' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '2026-02-30T10:00:00Z' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '9999-12-31T23:59:59-14:00' },
      { locationId: zlatibor.id, odgovoran: tree.leaf.id, rok: '0001-01-01T00:00:00+01:00' },
    ]) {
      expect((await call('POST', '/api/topic', adminToken, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const raw = await t.call({
      method: 'POST',
      url: '/api/topic',
      token: adminToken,
      payload: 'x',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.statusCode).toBe(400);
    expect(await count()).toBe(before);
  });
});
describe('PATCH /api/topic/:id', () => {
  it('edits an open topic without comments, omitted fields staying, and moves updatedAt', async () => {
    const created = await open(leafToken, {
      locationId: zlatibor.id,
      odgovoran: tree.leaf.id,
      opis: 'Staro',
      rok: '2026-05-01',
      prioritet: 'nizak',
    });
    const before = await auditCount();
    const res = await call('PATCH', `/api/topic/${created._id}`, leafToken, { odgovoran: ministryId, opis: 'Novo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: said(TOPICS.edited),
      data: {
        opis: 'Novo',
        odgovoran: { _id: ministryId, naziv: 'Ministarstvo Tema' },
        rok: '2026-05-01T00:00:00.000Z',
        prioritet: 'nizak',
      },
    });
    expect(res.json().data.updatedAt > created.updatedAt).toBe(true);
    const cleared = await call('PATCH', `/api/topic/${created._id}`, leafToken, { odgovoran: tree.leaf.id, rok: '', prioritet: 'visok' });
    expect(cleared.json().data).toMatchObject({ rok: null, prioritet: 'visok', opis: 'Novo' });
    expect(await auditCount()).toBe(before + 2);
  });

  it('validates an edit: responsible group required and valid, nothing changed', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Validacija' });
    const row = await topicRow(_id);
    const cases: [object, string][] = [
      [{ opis: 'x' }, 'Поље је обавезно'],
      [{ odgovoran: NO_ID, opis: 'x' }, TOPICS.groupCannotSee],
      [{ odgovoran: reservedId, opis: 'x' }, TOPICS.groupCannotSee],
      [{ odgovoran: tree.other.id, opis: 'x' }, TOPICS.groupCannotSee],
      [{ odgovoran: tree.leaf.id, prioritet: 'hitno' }, ''],
      [{ status: 'otvoren' }, TOPICS.cannotReopen],
      [{ status: 'otvoren', odgovoran: tree.leaf.id, opis: 'x' }, TOPICS.cannotReopen],
    ];
    for (const [body, message] of cases) {
      const res = await call('PATCH', `/api/topic/${_id}`, leafToken, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (message) expect(res.json().message).toBe(said(message));
    }
    const raw = await t.call({
      method: 'PATCH',
      url: `/api/topic/${_id}`,
      token: leafToken,
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.statusCode).toBe(400);
    expect(await topicRow(_id)).toEqual(row);
  });

  it('closes a topic (also one with comments); a closed one can be neither changed, closed again nor reopened', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Za zatvaranje' });
    expect((await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Radimo' })).statusCode).toBe(200);
    const audited = await auditCount();
    const closed = await call('PATCH', `/api/topic/${_id}`, managerToken, { status: 'zatvoren' });
    expect(await auditCount()).toBe(audited + 1);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ message: said(TOPICS.closed), data: { status: 'zatvoren', brojKomentara: 1 } });
    const row = await topicRow(_id);
    const before = await auditCount();
    for (const body of [{ status: 'zatvoren' }, { odgovoran: tree.other.id, opis: 'x' }]) {
      const res = await call('PATCH', `/api/topic/${_id}`, leafToken, body);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(said(TOPICS.closedLocked));
    }
    expect((await call('PATCH', `/api/topic/${_id}`, leafToken, { status: 'otvoren' })).statusCode).toBe(400);
    expect(await topicRow(_id)).toEqual(row);
    expect(await auditCount()).toBe(before);
  });

  it('refuses changing a commented topic, changing nothing', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Komentarisana' });
    await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Prvi' });
    const row = await topicRow(_id);
    const res = await call('PATCH', `/api/topic/${_id}`, adminToken, { odgovoran: tree.other.id, opis: 'Promena' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(said(TOPICS.commentedLocked));
    expect(await topicRow(_id)).toEqual(row);
  });

  it('answers 404 to a caller who cannot see the cluster', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id });
    const row = await topicRow(_id);
    for (const body of [{ status: 'zatvoren' }, { odgovoran: tree.other.id }]) {
      const res = await call('PATCH', `/api/topic/${_id}`, otherToken, body);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(said(TOPICS.notFound));
    }
    expect((await call('PATCH', `/api/topic/${NO_ID}`, adminToken, { status: 'zatvoren' })).statusCode).toBe(404);
    expect(await topicRow(_id)).toEqual(row);
  });
});
describe('DELETE /api/topic/:id', () => {
  it('deletes an open topic without comments, with an audit row', async () => {
    const { _id } = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Brisanje' });
    expect((await call('DELETE', `/api/topic/${_id}`, otherToken)).statusCode).toBe(404);
    const before = await auditCount();
    const res = await call('DELETE', `/api/topic/${_id}`, leafToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: said(TOPICS.deleted) });
    expect(await topicRow(_id)).toBeUndefined();
    expect(await auditCount()).toBe(before + 1);
    expect((await call('DELETE', `/api/topic/${_id}`, leafToken)).statusCode).toBe(404);
  });

  it('refuses a closed or commented topic, deleting nothing', async () => {
    const closed = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id });
    await call('PATCH', `/api/topic/${closed._id}`, leafToken, { status: 'zatvoren' });
    const commented = await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id });
    await call('POST', `/api/topic/${commented._id}/komentar`, leafToken, { tekst: 'Ostaje' });
    const r1 = await call('DELETE', `/api/topic/${closed._id}`, adminToken);
    expect(r1.statusCode).toBe(409);
    expect(r1.json().message).toBe(said(TOPICS.closedLocked));
    const r2 = await call('DELETE', `/api/topic/${commented._id}`, adminToken);
    expect(r2.statusCode).toBe(409);
    expect(r2.json().message).toBe(said(TOPICS.commentedLocked));
    expect(await topicRow(closed._id)).toBeDefined();
    expect(await topicRow(commented._id)).toBeDefined();
  });
});

describe('POST /api/topic/:id/komentar', () => {
  it('lets the responsible group comment; the comment keeps the group, updatedAt moves', async () => {
    const created = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Razgovor' });
    const before = await auditCount();
    const res = await call('POST', `/api/topic/${created._id}/komentar`, leafToken, { tekst: '  Pogledaćemo ', noviOdgovoran: '' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ _id: created._id, odgovoran: { _id: tree.leaf.id }, brojKomentara: 1 });
    expect(data.komentari).toHaveLength(1);
    expect(data.komentari[0]).toMatchObject({
      tekst: 'Pogledaćemo',
      createdBy: { ime: 'Jovana', prezime: 'Jović' },
      odgovoranZaOdgovor: { _id: tree.leaf.id, naziv: tree.leaf.naziv },
    });
    expect(data.updatedAt > created.updatedAt).toBe(true);
    expect(await auditCount()).toBe(before + 1);
    expect((await listIds(leafToken))[0]).toBe(created._id);
    await open(leafToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Novija' });
    expect((await listIds(leafToken))[0]).not.toBe(created._id);
    // the manager of leaf's parent answers too, and the comment brings the topic back to the top
    expect((await call('POST', `/api/topic/${created._id}/komentar`, managerToken, { tekst: 'I ja' })).statusCode).toBe(200);
    expect((await listIds(leafToken))[0]).toBe(created._id);
  });

  it('hands the topic over with noviOdgovoran: then only the new group may comment', async () => {
    const { _id } = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Predaja' });
    const res = await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Predajemo ministarstvu', noviOdgovoran: ministryId });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.odgovoran).toEqual({ _id: ministryId, naziv: 'Ministarstvo Tema' });
    expect(data.komentari[0].odgovoranZaOdgovor).toEqual({ _id: ministryId, naziv: 'Ministarstvo Tema' });
    // leaf can no longer comment; the ministry (which sees every cluster) now answers
    const leafAgain = await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Još nešto' });
    expect(leafAgain.statusCode).toBe(403);
    expect(leafAgain.json().message).toBe(said(TOPICS.onlyResponsible));
    expect((await call('GET', `/api/topic/${_id}`, leafToken)).json().canComment).toBe(false);
    expect((await call('GET', `/api/topic/${_id}`, allSeeingToken)).json().canComment).toBe(true);
    const back = await call('POST', `/api/topic/${_id}/komentar`, allSeeingToken, { tekst: 'Vraćamo', noviOdgovoran: tree.leaf.id });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.odgovoran._id).toBe(tree.leaf.id);
  });

  it('refuses others, closed topics, blank text and invalid groups, saving nothing', async () => {
    const { _id } = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id, opis: 'Odbijanja' });
    const comments = async () => (await t.db.select().from(topicComments).where(eq(topicComments.topicId, _id))).length;
    const cases: [string, object, number, string][] = [
      [adminToken, { tekst: 'Admin' }, 403, TOPICS.onlyResponsible],
      [allSeeingToken, { tekst: 'Ministarstvo' }, 403, TOPICS.onlyResponsible],
      [otherToken, { tekst: 'Nadzor' }, 404, TOPICS.notFound],
      [leafToken, { tekst: '   ' }, 400, TOPICS.commentRequired],
      [leafToken, { tekst: '' }, 400, TOPICS.commentRequired],
      [leafToken, { tekst: 'x', noviOdgovoran: NO_ID }, 400, TOPICS.groupCannotSee],
      [leafToken, { tekst: 'x', noviOdgovoran: reservedId }, 400, TOPICS.groupCannotSee],
      [leafToken, { tekst: 'x', noviOdgovoran: tree.other.id }, 400, TOPICS.groupCannotSee],
      [leafToken, { tekst: 'x', noviOdgovoran: 'nije-id' }, 400, ''],
    ];
    for (const [token, body, status, message] of cases) {
      const res = await call('POST', `/api/topic/${_id}/komentar`, token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (message) expect(res.json().message).toBe(said(message));
    }
    expect((await call('POST', `/api/topic/${_id}/komentar`, leafToken, {})).statusCode).toBe(400);
    expect((await call('POST', `/api/topic/${NO_ID}/komentar`, leafToken, { tekst: 'x' })).statusCode).toBe(404);
    await call('PATCH', `/api/topic/${_id}`, leafToken, { status: 'zatvoren' });
    const closed = await call('POST', `/api/topic/${_id}/komentar`, leafToken, { tekst: 'Kasno' });
    expect(closed.statusCode).toBe(403);
    expect(await comments()).toBe(0);
    expect((await topicRow(_id))?.groupId).toBe(tree.leaf.id);
  });

  it("shows a deleted author's comment as 'Korisnik je obrisan'", async () => {
    const author = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id });
    const { _id } = await open(adminToken, { locationId: zlatibor.id, odgovoran: tree.leaf.id });
    expect((await call('POST', `/api/topic/${_id}/komentar`, await tokenFor(t.ctx, author), { tekst: 'Odlazim' })).statusCode).toBe(200);
    await t.db.delete(users).where(eq(users.id, author.id));
    const res = await call('GET', `/api/topic/${_id}`, adminToken);
    expect(res.json().data.komentari[0].createdBy).toEqual({ ime: ACCOUNT.deletedUser, prezime: '' });
  });
});
