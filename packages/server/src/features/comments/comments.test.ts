import { ACTIVITIES } from '@trasa/domain';
import { like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { createUser, tokenFor } from '../../seed/factories.js';
import { client, createTeam, type Team } from '../activities/testing.js';

/** POST /api/comment/:id: comments on an activity of a visible cluster, oldest first in the detail. */
const t = useTestApp();
let team: Team;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  team = await createTeam(t, 'Komentari');
  api = client(t, team.cluster.id);
});

describe('comments on an activity', () => {
  it('are written by whoever sees the cluster, in any state, and listed oldest first', async () => {
    const first = await api.comment(team.tokens.nad, 'A5', '  Čekamo dokumentaciju.  ');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({
      message: said(ACTIVITIES.commentSent),
      komentar: {
        _id: expect.any(String),
        komentar: 'Čekamo dokumentaciju.',
        createdAt: expect.any(String),
        user: { ime: 'Nenad', prezime: 'Nadzorić', email: expect.stringContaining('@') },
      },
    });
    expect((await api.comment(team.tokens.manager, 'A5', 'Važi.')).statusCode).toBe(201);
    expect((await api.comment(team.tokens.admin, 'A5', 'Ok.')).statusCode).toBe(201);
    const komentari = api.ok(await api.get(team.tokens.izv, 'A5')).activity.komentari;
    expect(komentari.map((k: { komentar: string }) => k.komentar)).toEqual(['Čekamo dokumentaciju.', 'Važi.', 'Ok.']);
    const [log] = await t.db
      .select()
      .from(auditLogs)
      .where(like(auditLogs.message, '%je komentarisao aktivnost A5 na klasteru Zlatibor Komentari.'));
    expect(log).toBeTruthy();
  });

  it('refuses an empty, missing or overlong text and anybody who does not see the cluster', async () => {
    await api.refused(() => api.comment(team.tokens.nad, 'A5', '   '), 400, ACTIVITIES.commentEmpty);
    await api.refused(() => api.comment(team.tokens.nad, 'A5', ''), 400, ACTIVITIES.commentEmpty);
    await api.refused(() => api.comment(team.tokens.nad, 'A5'), 400, ACTIVITIES.commentRequired);
    await api.refused(() => api.comment(team.tokens.nad, 'A5', 42), 400, ACTIVITIES.commentRequired);
    await api.refused(() => api.comment(team.tokens.nad, 'A5', 'x'.repeat(5001)), 400, ACTIVITIES.commentTooLong);
    await api.refused(() => api.comment(team.tokens.sibling, 'A5', 'Zdravo'), 404);
    await api.refused(
      () => t.call({ method: 'POST', url: '/api/comment/nije-id', token: team.tokens.nad, payload: { komentar: 'a' } }),
      404,
    );
    const guest = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
    await api.refused(() => api.comment(guest, 'A5', 'Zdravo'), 403);
  });

  it("shows a deleted author's comment without the person", async () => {
    const leaving = await createUser(t.db, { groupId: team.groups.nar.id, ime: 'Odlazi' });
    const token = await tokenFor(t.ctx, leaving);
    expect((await api.comment(token, 'A1', 'Poslednja poruka.')).statusCode).toBe(201);
    const deleted = await t.call({ method: 'DELETE', url: '/api/user/my-profile', token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const komentari = api.ok(await api.get(team.tokens.nar, 'A1')).activity.komentari;
    expect(komentari).toEqual([expect.objectContaining({ komentar: 'Poslednja poruka.', user: null })]);
  });
});
