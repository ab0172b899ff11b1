import { ACTIVITIES, COMMON } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { activityComments } from '../../db/schema-activities.js';
import { driveCluster } from '../../seed/drive.js';
import { createUser, tokenFor } from '../../seed/factories.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { activityRow, client, createTeam, pdf, type Team } from './testing.js';

/**
 * The state a change was made on (`stanje`: status and revision as the screen showed them; a change queued
 * on a device without signal always sends it): data, comments and uploads that name it are refused with
 * 409 and the reason when the activity has moved on, and change nothing; without it they behave as before.
 */
const t = useTestApp();
let team: Team;
let api: ReturnType<typeof client>;
let T: Team['tokens'];

const date = (vrednost: string) => [{ key: 'Datum', naziv: 'Datum', vrednost }];
const made = (status: string, revizija: number) => ({ status, revizija });

beforeAll(async () => {
  team = await createTeam(t, 'Stanje');
  T = team.tokens;
  api = client(t, team.cluster.id);
  // A1–A3 finished: A4 (the contractor's) is in progress in revision 0.
  await driveCluster({ db: t.db, store: activityFileStore(t.ctx.config.dataDir) }, team.cluster.id, { until: 'A3' });
});

const commentsOf = async (code: string) =>
  (
    await t.db
      .select()
      .from(activityComments)
      .where(eq(activityComments.activityId, await api.idOf(code)))
  ).map((c) => c.komentar);

describe('a change that names the state it was made on', () => {
  it('is applied while the state is the same, and without one as before', async () => {
    const res = api.ok(await api.data(T.izv, 'A4', date('2024-03-01'), made('U toku', 0)));
    expect(res.message).toBe(said(ACTIVITIES.dataSaved));
    expect(res.activity.podaci).toEqual([expect.objectContaining({ key: 'Datum', vrednost: '2024-03-01' })]);
    api.ok(await api.data(T.izv, 'A4', date('2024-03-02')));
    expect(api.ok(await api.comment(T.izv, 'A4', 'Na terenu.', made('U toku', 0)), 201).komentar.komentar).toBe('Na terenu.');
    // Whoever sees the cluster comments, as before.
    api.ok(await api.comment(T.nad, 'A4', 'Primljeno.', made('U toku', 0)), 201);
    api.ok(await api.upload(T.izv, 'A4', [pdf('Trasa.pdf')], { stanje: made('U toku', 0) }));
    expect((await api.liveFiles('A4')).map((f) => f.originalnoIme)).toEqual(['Trasa.pdf']);
  });

  it('keeps the permissions: not responsible 403, out of sight 404, a guest 403, anonymous 401', async () => {
    const stanje = made('U toku', 0);
    await api.refused(() => api.data(T.nad, 'A4', date('2024-03-03'), stanje), 403, ACTIVITIES.notResponsible);
    await api.refused(() => api.data(T.manager, 'A4', date('2024-03-03'), stanje), 403);
    await api.refused(() => api.upload(T.nad, 'A4', [pdf()], { stanje }), 403, ACTIVITIES.notResponsible);
    await api.refused(() => api.data(T.sibling, 'A4', date('2024-03-03'), stanje), 404);
    await api.refused(() => api.comment(T.sibling, 'A4', 'Zdravo', stanje), 404);
    await api.refused(() => api.upload(T.sibling, 'A4', [pdf()], { stanje }), 404);
    const guest = await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' }));
    await api.refused(() => api.comment(guest, 'A4', 'Zdravo', stanje), 403);
    const id = await api.idOf('A4');
    await api.refused(() => t.call({ method: 'PATCH', url: `/api/activity/${id}`, payload: { podaci: [], stanje } }), 401);
  });

  it('refuses a malformed state as a bad request', async () => {
    await api.refused(() => api.data(T.izv, 'A4', date('2024-03-03'), { status: 'U toku' }), 400);
    await api.refused(() => api.data(T.izv, 'A4', date('2024-03-03'), { status: 'U toku', revizija: -1 }), 400);
    await api.refused(() => api.comment(T.izv, 'A4', 'x', { status: 'U toku', revizija: '0' }), 400);
    const row = await activityRow(t, team.cluster.id, 'A4');
    const url = `/api/activity/A4/${team.cluster.id}/${row.id}/false/${row.version}/true?status=U%20toku`;
    const res = await api.refused(() => t.call({ method: 'PATCH', url, token: T.izv, payload: {} }), 400);
    expect(res.json().message).toBe(said(COMMON.badRequest));
  });

  it('refuses what meets a finished activity with the reason, changing nothing; without the state as before', async () => {
    api.ok(await api.status(T.izv, 'A4', 'Završena'));
    const stale = made('U toku', 0);
    await api.refused(() => api.data(T.izv, 'A4', date('2024-03-04'), stale), 409, ACTIVITIES.finishedMeanwhile);
    await api.refused(() => api.comment(T.izv, 'A4', 'Kasni komentar.', stale), 409, ACTIVITIES.finishedMeanwhile);
    await api.refused(() => api.upload(T.izv, 'A4', [pdf('Kasno.pdf')], { stanje: stale }), 409, ACTIVITIES.finishedMeanwhile);
    // Without a state: as the current screens know it.
    await api.refused(() => api.data(T.izv, 'A4', date('2024-03-04')), 409, ACTIVITIES.notInProgress);
    await api.refused(() => api.upload(T.izv, 'A4', [pdf('Kasno.pdf')]), 409, ACTIVITIES.notInProgress);
    api.ok(await api.comment(T.izv, 'A4', 'Posle završetka.'), 201);
    // A comment written on the finished activity is taken.
    api.ok(await api.comment(T.izv, 'A4', 'I ovaj.', made('Završena', 0)), 201);
    expect(await commentsOf('A4')).toEqual(['Na terenu.', 'Primljeno.', 'Posle završetka.', 'I ovaj.']);
    // A4.1 started with A4's finish: a comment written while it had not started still applies.
    api.ok(await api.comment(T.nad, 'A4.1', 'Pisano pre pokretanja.', made('Nije započeta', 0)), 201);
  });

  it('refuses what was made on the revision before the one in progress', async () => {
    // The supervision sends A4 back: a new revision (1) in progress.
    api.ok(await api.control(T.nad, 'A4.1', true));
    const now = await activityRow(t, team.cluster.id, 'A4');
    expect({ status: now.status, revizija: now.returned + now.version }).toEqual(made('U toku', 1));
    const old = made('U toku', 0);
    await api.refused(() => api.data(T.izv, 'A4', date('2024-03-05'), old), 409, ACTIVITIES.newRevisionMeanwhile);
    await api.refused(() => api.comment(T.izv, 'A4', 'Stara revizija.', old), 409, ACTIVITIES.newRevisionMeanwhile);
    await api.refused(() => api.upload(T.izv, 'A4', [pdf('Staro.pdf')], { stanje: old }), 409, ACTIVITIES.newRevisionMeanwhile);
    // Made on a finished activity that was reopened meanwhile: changed.
    await api.refused(() => api.comment(T.izv, 'A4', 'Zastarelo.', made('Završena', 0)), 409, ACTIVITIES.newRevisionMeanwhile);
    // The current revision's state is taken.
    api.ok(await api.data(T.izv, 'A4', date('2024-03-06'), made('U toku', 1)));
    api.ok(await api.upload(T.izv, 'A4', [pdf('Novo.pdf')], { stanje: made('U toku', 1) }));
    expect((await api.liveFiles('A4')).map((f) => f.originalnoIme)).toContain('Novo_revizija=1.pdf');
  });
});
