import { ACTIVITIES, asTyped } from '@trasa/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { appToday } from '../../platform/time.js';
import { driveCluster } from '../../seed/drive.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { flowHelpers } from './flowSetup.js';
import { activityRow, client, createHolder, createTeam, pdf, type Team } from './testing.js';

/**
 * The cluster of flow.test.ts from A6.1 on, over HTTP: the system drives a cluster of the same team to
 * there first (A5.1 accepted, A6 finished, A6.1 in progress; seed/drive.ts), then the `it` blocks run
 * in order on it, each step by an employee of the responsible group type and refused for the others.
 */
const t = useTestApp();
const today = appToday();

let team: Team;
let api: ReturnType<typeof client>;
let T: Team['tokens'];
let holders: { id: string; naziv: string }[];

const { statusOf, statuses, clusterStatus, uploadAndFinish, logText } = flowHelpers(t, () => ({ team, api, T }));

beforeAll(async () => {
  team = await createTeam(t, 'Tok');
  T = team.tokens;
  api = client(t, team.cluster.id);
  holders = await Promise.all([createHolder(t, 'Elektrodistribucija Tok'), createHolder(t, 'Telekom Tok', 'Naručilac')]);
  await driveCluster({ db: t.db, store: activityFileStore(t.ctx.config.dataDir) }, team.cluster.id, { until: 'A5.1' });
  expect(await statuses(['A6', 'A6.1'])).toEqual({ A6: 'Završena', 'A6.1': 'U toku' });
});

describe('A6.1 and A7: holders and their fees', () => {
  it('A6.1 keeps the chosen holders and copies them into A7 before it starts', async () => {
    const [h1, h2] = holders as [{ id: string; naziv: string }, { id: string; naziv: string }];
    await api.refused(
      () => api.data(T.piu, 'A6.1', [{ key: 'Ijos', vrednost: `${h1.id},${team.groups.nar.id}` }]),
      400,
      ACTIVITIES.unknownHolder,
    );
    await api.refused(() => api.data(T.piu, 'A6.1', [{ key: 'Ijos', vrednost: 'nije-id' }]), 400, ACTIVITIES.unknownHolder);
    await api.refused(() => api.data(T.izv, 'A6.1', [{ key: 'Ijos', vrednost: h1.id }]), 403);
    const saved = api.ok(await api.data(T.piu, 'A6.1', [{ key: 'Ijos', naziv: 'IJO', vrednost: `${h1.id}, ${h2.id}` }]));
    expect(saved.activity.podaci).toEqual([
      { key: 'Ijos', naziv: 'IJO', vrednost: `${h1.id},${h2.id}` },
      { key: 'IjoNazivi', naziv: 'Imaoci javnih ovlašćenja', vrednost: `${h1.naziv}, ${h2.naziv}` },
    ]);
    const a7 = await activityRow(t, team.cluster.id, 'A7');
    expect(a7.status).toBe('Nije započeta');
    expect(a7.podaci).toEqual(saved.activity.podaci);
    expect(await logText()).toContain('je sačuvao podatke (IJO) aktivnosti A6.1 na klasteru Zlatibor Tok');
  });

  it('A6.1 positive starts A7 and A8', async () => {
    api.ok(await api.control(T.piu, 'A6.1', false));
    expect(await statuses(['A7', 'A8'])).toEqual({ A7: 'U toku', A8: 'U toku' });
  });

  it('A7 needs every holder done with its fee and file', async () => {
    const [h1, h2] = holders as [{ id: string; naziv: string }, { id: string; naziv: string }];
    await api.refused(() => api.status(T.nar, 'A7', 'Završena'), 400);
    await api.refused(() => api.data(T.nar, 'A7', [{ key: 'A7IjoChecked', vrednost: team.groups.nar.id }]), 400, ACTIVITIES.unknownHolder);
    await api.refused(
      () => api.data(T.nar, 'A7', [{ key: 'A7Taksa', vrednost: '100', ref: team.groups.nar.id }]),
      400,
      ACTIVITIES.unknownHolder,
    );
    await api.refused(() => api.data(T.nar, 'A7', [{ key: 'Ijos', vrednost: h1.id }]), 400, ACTIVITIES.keyNotAllowed(asTyped('Ijos')));
    api.ok(
      await api.data(T.nar, 'A7', [
        { key: 'A7IjoChecked', vrednost: h1.id },
        { key: 'A7Taksa', vrednost: '0', ref: h1.id },
      ]),
    );
    await api.refused(
      () => api.status(T.piu, 'A7', 'Završena'),
      400,
      `${ACTIVITIES.holdersUnchecked} ${ACTIVITIES.feesMissing} ${ACTIVITIES.filesNeeded(2)}`,
    );
    const res = await api.status(T.piu, 'A7', 'Završena');
    expect(res.json().errors).toEqual({
      A7IjoChecked: said(ACTIVITIES.holdersUnchecked),
      A7Taksa: said(ACTIVITIES.feesMissing),
      fajlovi: said(ACTIVITIES.filesNeeded(2)),
    });
    // Money typed as the app shows it is refused, never collapsed (a second separator, a third decimal, a sign).
    for (const typed of ['2.500,50', '10,123456', '15.000', '-3', '1e5', '12 500 RSD']) {
      await api.refused(
        () => api.data(T.piu, 'A7', [{ key: 'A7Taksa', vrednost: typed, ref: h2.id }]),
        400,
        ACTIVITIES.numberFor(asTyped(h2.naziv)),
      );
      await api.refused(
        () => api.data(T.piu, 'A7', [{ key: 'DodatnaTaksa', naziv: 'Republička taksa', vrednost: typed }]),
        400,
        ACTIVITIES.mustBeNumber,
      );
    }
    expect(
      api.ok(await api.data(T.piu, 'A7', [{ key: 'DodatnaTaksa', naziv: 'Republička taksa', vrednost: '15.00' }])).activity.podaci,
    ).toEqual(expect.arrayContaining([{ key: 'DodatnaTaksa', naziv: 'Republička taksa', vrednost: '15' }]));
    api.ok(await api.data(T.piu, 'A7', [{ key: 'DodatnaTaksa', naziv: 'Republička taksa', vrednost: '' }]));
    api.ok(
      await api.data(T.piu, 'A7', [
        { key: 'A7IjoChecked', vrednost: `${h1.id},${h2.id}` },
        { key: 'A7Taksa', vrednost: '15000,50', ref: h2.id },
      ]),
    );
    await api.refused(() => api.upload(T.piu, 'A7', [pdf('uslovi.pdf')], { userInput: team.groups.nar.id }), 400, ACTIVITIES.unknownHolder);
    api.ok(await api.upload(T.piu, 'A7', [pdf('Uslovi ED.pdf')], { userInput: h1.id }));
    await api.refused(() => api.status(T.piu, 'A7', 'Završena'), 400, ACTIVITIES.filesNeeded(2));
    const last = api.ok(await api.upload(T.nar, 'A7', [pdf('Uslovi Telekom.pdf')], { userInput: h2.id }));
    expect(last.activity.podaci).toEqual(
      expect.arrayContaining([
        { key: 'A7Taksa', naziv: h1.naziv, vrednost: '0', ref: h1.id },
        { key: 'A7Taksa', naziv: h2.naziv, vrednost: '15000.5', ref: h2.id },
      ]),
    );
    api.ok(await api.status(T.piu, 'A7', 'Završena'));
    // A10 waits for A9.1.
    expect(await statusOf('A10')).toBe('Nije započeta');
  });
});

describe('A8 to A11: PGD rejected once, then the permit finishes A11', () => {
  it('A8, A9 and A9.1 lead to A10', async () => {
    await uploadAndFinish(T.izv, 'A8', 'PGD.pdf');
    api.ok(await api.data(T.izv, 'A9', [{ key: 'DuzinaTrase', vrednost: '12500', ref: 'ignorisano' }]));
    expect((await activityRow(t, team.cluster.id, 'A9')).podaci).toEqual([
      { key: 'DuzinaTrase', naziv: 'Dužina trase (m)', vrednost: '12500' },
    ]);
    await uploadAndFinish(T.izv, 'A9', 'PZI.pdf');
    api.ok(await api.control(T.nad, 'A9.1', false));
    api.ok(await api.data(T.izv, 'A10', [{ key: 'Datum', vrednost: today }]));
    api.ok(await api.status(T.izv, 'A10', 'Završena'));
    expect(await statusOf('A10.1')).toBe('U toku');
  });

  it("'Odbijen PGD ili IDP' sends A8 back; A8 to A10.1 run again", async () => {
    api.ok(await api.control(T.izv, 'A10.1', true));
    expect(await activityRow(t, team.cluster.id, 'A8')).toMatchObject({ status: 'U toku', returned: 1 });
    expect(await logText()).toContain(
      'je razrešio kontrolu A10.1 na klasteru Zlatibor Tok: Odbijen PGD ili IDP; A8 vraćena na doradu (revizija 1)',
    );
    expect(await statusOf('A11')).toBe('Nije započeta');
    await uploadAndFinish(T.izv, 'A8', 'PGD izmenjen.pdf');
    expect(await activityRow(t, team.cluster.id, 'A9')).toMatchObject({ status: 'U toku', version: 1 });
    await api.refused(() => api.status(T.izv, 'A9', 'Završena'), 400, ACTIVITIES.filesNeeded(1));
    await uploadAndFinish(T.izv, 'A9', 'PZI.pdf');
    api.ok(await api.control(T.nad, 'A9.1', false));
    expect(await activityRow(t, team.cluster.id, 'A10')).toMatchObject({ status: 'U toku', version: 1 });
    api.ok(await api.status(T.izv, 'A10', 'Završena'));
    expect(await activityRow(t, team.cluster.id, 'A10.1')).toMatchObject({ status: 'U toku', version: 1 });
  });

  it("'Dobijeni ROOI ili GD' finishes A10.1 and A11, and starts A12", async () => {
    await api.refused(() => api.control(T.izv, 'A10.1', false), 400, ACTIVITIES.enterField('datum'));
    api.ok(await api.data(T.izv, 'A10.1', [{ key: 'Datum', vrednost: today }]));
    api.ok(await api.control(T.izv, 'A10.1', false));
    expect(await activityRow(t, team.cluster.id, 'A11')).toMatchObject({ status: 'Završena', datumZavrsetka: today });
    expect(await statusOf('A12')).toBe('U toku');
  });
});

describe('A12 to A27.1: works, tests, permits and handover', () => {
  it('A12 to A18', async () => {
    api.ok(
      await api.data(T.izv, 'A12', [
        { key: 'Datum', vrednost: today },
        { key: 'DuzinaTrase', vrednost: '12480' },
      ]),
    );
    api.ok(await api.status(T.izv, 'A12', 'Završena'));
    expect(await statuses(['A13', 'A14'])).toEqual({ A13: 'U toku', A14: 'U toku' });
    const a14 = api.ok(await api.get(T.izv, 'A14')).activity;
    expect(a14).toMatchObject({ rok: 'klizno', rokZavrsetka: null, boja: 'blue', brojDanaDoRoka: null });
    api.ok(await api.data(T.izv, 'A13', [{ key: 'Datum', vrednost: today }]));
    api.ok(await api.status(T.izv, 'A13', 'Završena'));
    expect(await statusOf('A15')).toBe('Nije započeta');
    await uploadAndFinish(T.izv, 'A14', 'Građevinski dnevnik.pdf');
    api.ok(await api.control(T.nad, 'A14.1', false));
    await uploadAndFinish(T.izv, 'A15');
    expect(await statuses(['A16', 'A17'])).toEqual({ A16: 'U toku', A17: 'U toku' });
    await uploadAndFinish(T.izv, 'A16');
    await api.refused(() => api.status(T.izv, 'A17', 'Završena'), 400, ACTIVITIES.numberFor('Broj'));
    await api.refused(
      () => api.data(T.izv, 'A17', [{ key: 'Broj', vrednost: 'dvanaest' }]),
      400,
      ACTIVITIES.numberFor('Dužina izgrađene trase (m)'),
    );
    api.ok(await api.data(T.izv, 'A17', [{ key: 'Broj', vrednost: '12480' }]));
    api.ok(await api.status(T.izv, 'A17', 'Završena'));
    api.ok(await api.data(T.izv, 'A18', [{ key: 'Datum', vrednost: today }]));
    api.ok(await api.status(T.izv, 'A18', 'Završena'));
    expect(await statuses(['A19', 'A20'])).toEqual({ A19: 'U toku', A20: 'U toku' });
  });

  it('A20 takes five files, one per test type', async () => {
    await api.refused(() => api.upload(T.izv, 'A20', [pdf('test.pdf')], { userInput: '6' }), 400, ACTIVITIES.unknownTestType);
    await api.refused(() => api.upload(T.izv, 'A20', [pdf('test.pdf')]), 400, ACTIVITIES.unknownTestType);
    for (const type of ['1', '2', '3', '4']) api.ok(await api.upload(T.izv, 'A20', [pdf(`test ${type}.pdf`)], { userInput: type }));
    // An extra optional file counts for no slot.
    api.ok(await api.upload(T.izv, 'A20', [pdf('napomena.pdf')], { isRequired: false }));
    await api.refused(() => api.status(T.izv, 'A20', 'Završena'), 400, ACTIVITIES.filesNeeded(5));
    api.ok(await api.upload(T.izv, 'A20', [pdf('test 5.pdf')], { userInput: '5' }));
    const files = await api.liveFiles('A20');
    expect(files.map((f) => [f.slot, f.isRequired])).toEqual([
      ['1', true],
      ['2', true],
      ['3', true],
      ['4', true],
      [null, false],
      ['5', true],
    ]);
    await uploadAndFinish(T.izv, 'A19', 'PIO.pdf');
    expect(await statusOf('A21')).toBe('Nije započeta');
    api.ok(await api.status(T.izv, 'A20', 'Završena'));
    expect(await statusOf('A21')).toBe('U toku');
  });

  it('A21 to A26 by the client, supervision and contractor', async () => {
    await api.refused(() => api.upload(T.izv, 'A21', [pdf()]), 403);
    await uploadAndFinish(T.nar, 'A21');
    await uploadAndFinish(T.nar, 'A22');
    await uploadAndFinish(T.izv, 'A23');
    api.ok(await api.control(T.nad, 'A23.1', false));
    api.ok(await api.control(T.nad, 'A24', false));
    api.ok(await api.status(T.izv, 'A25', 'Završena'));
    await uploadAndFinish(T.nar, 'A26', 'Upotrebna dozvola.pdf');
    expect(await statuses(['A26.1', 'A27'])).toEqual({ 'A26.1': 'U toku', A27: 'U toku' });
  });

  it('A26.1 and A27.1: the number first, then the decision; the cluster is finished', async () => {
    await api.refused(() => api.control(T.nar, 'A26.1', false), 400, ACTIVITIES.required);
    await api.refused(() => api.control(T.nar, 'A26.1', true), 400, ACTIVITIES.required);
    api.ok(await api.data(T.nar, 'A26.1', [{ key: 'Broj', vrednost: '312' }]));
    api.ok(await api.upload(T.nar, 'A26.1', [pdf('Domaćinstva.pdf')]));
    api.ok(await api.control(T.nar, 'A26.1', false));
    await uploadAndFinish(T.nar, 'A27');
    api.ok(await api.data(T.nar, 'A27.1', [{ key: 'Broj', vrednost: '4' }]));
    expect(await clusterStatus()).toBe('U toku');
    api.ok(await api.control(T.nar, 'A27.1', false));
    const rows = await Promise.all(['A1', 'A6', 'A11', 'A20', 'A27.1'].map(async (c) => (await activityRow(t, team.cluster.id, c)).status));
    expect(rows.every((s) => s === 'Završena')).toBe(true);
    expect(await clusterStatus()).toBe('Završen');
  });
});
