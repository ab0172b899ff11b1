import { ACTIVITIES, addDays, asTyped } from '@trasa/domain';
import { eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { activityFiles } from '../../db/schema-activities.js';
import { appToday } from '../../platform/time.js';
import { createCluster } from '../../seed/factories.js';
import { flowHelpers } from './flowSetup.js';
import { activityRow, client, createHolder, createTeam, pdf, type Team } from './testing.js';

/**
 * One cluster driven from A1 to A27.1 over HTTP (spec 3 §4; activity-catalogue.md), each step by an
 * employee of the responsible group type and refused for the others, in a wrong state and for a
 * malformed request, with nothing changed by any refusal. The `it` blocks run in order on one cluster;
 * this file runs A1 to A6, flow.late.test.ts from A6.1 on.
 */
const t = useTestApp();
const today = appToday();
const tomorrow = addDays(today, 1);

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
});

describe('A1: started by the client, one route per settlement', () => {
  it('shows a not-started cluster and who may start it', async () => {
    expect(await clusterStatus()).toBe('Nije započet');
    const asClient = api.ok(await api.get(T.nar, 'A1'));
    expect(asClient.activity).toMatchObject({
      kratakNaziv: 'A1',
      status: 'Nije započeta',
      rok: 15,
      version: 0,
      returned: 0,
      revizija: 0,
      odgovoran: ['NARUCILAC', 'IZVODJAC'],
      naredna: ['A2'],
      boja: 'white',
      brojDanaDoRoka: null,
      dozvole: { menjanje: false, pokretanje: true, reaktivacija: false, sviFajlovi: false },
      lokacija: { _id: team.cluster.id, ugovor: { _id: team.contract.id } },
    });
    // Only the cluster's own settlements are A1's slots, not the incidental one.
    expect(asClient.activity.lokacija.naselja.map((n: { _id: string }) => n._id)).toEqual(team.settlements.map((s) => s.id));
    expect(asClient.connected).toEqual([]);
    expect(api.ok(await api.get(T.izv, 'A1')).activity.dozvole.pokretanje).toBe(false);
    expect(api.ok(await api.get(T.admin, 'A1')).activity.dozvole.sviFajlovi).toBe(true);
    // The detail works the caller's scope out in its one statement: a team member sees it through the
    // responsible parent group, the parent's manager through the subtree; neither sees everything.
    for (const token of [T.izv, T.manager, T.nad]) expect(api.ok(await api.get(token, 'A1')).activity.dozvole.sviFajlovi).toBe(false);
  });

  it('is refused to anybody but a client employee, for another activity, and for a malformed request', async () => {
    for (const token of [T.izv, T.manager, T.admin, T.nad])
      await api.refused(() => api.status(token, 'A1', 'U toku'), 403, ACTIVITIES.onlyClientStarts);
    await api.refused(() => api.status(T.nar, 'A2', 'U toku'), 400, ACTIVITIES.onlyA1Starts);
    await api.refused(() => api.status(T.sibling, 'A1', 'U toku'), 404);
    await api.refused(() => api.status(T.nar, 'A1', 'Nije započeta'), 400, ACTIVITIES.statusChangeFailed);
    await api.refused(() => api.status(T.nar, 'A1', 'Pokreni'), 400, ACTIVITIES.statusChangeFailed);
    await api.refused(() => api.status(T.nar, 'A1', 'Završena'), 409, ACTIVITIES.notInProgress);
    await api.refused(
      () =>
        t.call({ method: 'POST', url: '/api/activity/activity-status/', token: T.nar, payload: { status: 'U toku', activityId: 'abc' } }),
      404,
    );
    await api.refused(
      () => t.call({ method: 'POST', url: '/api/activity/activity-status/', token: T.nar, payload: { status: 'U toku' } }),
      400,
    );
    await api.refused(() => t.call({ method: 'GET', url: '/api/activity/nije-id', token: T.nar }), 404);
    await api.refused(() => api.get(T.sibling, 'A1'), 404);
  });

  it('is refused on a cluster without a contract', async () => {
    const lone = await createCluster(t.db, {
      naziv: 'Bez ugovora Tok',
      groupIds: [team.groups.nar.id],
      naselja: [team.settlements[0]?.id ?? ''],
    });
    const other = client(t, lone.id);
    await other.refused(() => other.status(T.nar, 'A1', 'U toku'), 400, ACTIVITIES.noContract);
  });

  it('starts today with its deadline', async () => {
    const res = api.ok(await api.status(T.nar, 'A1', 'U toku'));
    expect(res.message).toBe(said(ACTIVITIES.started));
    expect(res.activity).toMatchObject({
      status: 'U toku',
      datumPocetka: today,
      rokZavrsetka: addDays(today, 15),
      brojDanaDoRoka: 15,
      boja: 'blue',
      dozvole: { menjanje: true, pokretanje: false },
    });
    await api.refused(() => api.status(T.nar, 'A1', 'U toku'), 409, ACTIVITIES.alreadyStarted);
    expect(await clusterStatus()).toBe('U toku');
    const [log] = await t.db.select().from(auditLogs).where(like(auditLogs.message, '%pokrenuo aktivnost A1 na klasteru Zlatibor Tok%'));
    expect(log).toBeTruthy();
  });

  it('takes one file per settlement, named by id or by name, and the route length per settlement', async () => {
    const [s1, s2] = team.settlements as unknown as [{ id: string; naziv: string }, { id: string; naziv: string }];
    await api.refused(() => api.status(T.izv, 'A1', 'Završena'), 400, `${ACTIVITIES.filesNeeded(2)}`);
    await api.refused(() => api.upload(T.izv, 'A1', [pdf('trasa.pdf')]), 400, ACTIVITIES.unknownSettlement);
    await api.refused(() => api.upload(T.izv, 'A1', [pdf('trasa.pdf')], { userInput: 'Negde daleko' }), 400, ACTIVITIES.unknownSettlement);
    await api.refused(() => api.upload(T.nad, 'A1', [pdf('trasa.pdf')], { userInput: s1.id }), 403, ACTIVITIES.notResponsible);
    await api.refused(() => api.upload(T.manager, 'A1', [pdf('trasa.pdf')], { userInput: s1.id }), 403);
    await api.refused(() => api.upload(T.izv, 'A1', [pdf('trasa.pdf')], { userInput: s1.id, version: 3 }), 409, ACTIVITIES.staleVersion);
    await api.refused(() => api.upload(T.izv, 'A1', [pdf('trasa.pdf')], { userInput: s1.id, type: 'A2' }), 400, ACTIVITIES.wrongActivity);
    await api.refused(() => api.upload(T.sibling, 'A1', [pdf('trasa.pdf')], { userInput: s1.id }), 404);
    await api.refused(() => api.upload(T.izv, 'A1', [], { userInput: s1.id }), 400, ACTIVITIES.noFiles);

    const first = api.ok(await api.upload(T.izv, 'A1', [pdf('Trasa Sirogojno.pdf')], { userInput: s1.id }));
    expect(first.message).toBe(said(ACTIVITIES.uploaded));
    expect(first.activity.fajlovi).toEqual([
      expect.objectContaining({ originalnoIme: 'Trasa Sirogojno.pdf', slot: s1.id, revizija: 0, isRequired: true, deleted: false }),
    ]);
    api.ok(await api.upload(T.nar, 'A1', [pdf('Trasa Rožanstvo.pdf')], { userInput: ` ${s2.naziv.toUpperCase()} ` }));

    await api.refused(
      () => api.data(T.izv, 'A1', [{ key: 'DuzinaTrase', naziv: '', vrednost: '1200', ref: team.groups.nar.id }]),
      400,
      ACTIVITIES.unknownSettlement,
    );
    const saved = api.ok(await api.data(T.izv, 'A1', [{ key: 'DuzinaTrase', naziv: '', vrednost: '1200,5', ref: s1.id }]));
    expect(saved.message).toBe(said(ACTIVITIES.dataSaved));
    expect(saved.activity.podaci).toEqual([{ key: 'DuzinaTrase', naziv: s1.naziv, vrednost: '1200.5', ref: s1.id }]);
  });

  it('finishes by a responsible employee and starts A2', async () => {
    await api.refused(() => api.status(T.nad, 'A1', 'Završena'), 403, ACTIVITIES.notResponsible);
    await api.refused(() => api.status(T.admin, 'A1', 'Završena'), 403, ACTIVITIES.notResponsible);
    const res = api.ok(await api.status(T.izv, 'A1', 'Završena'));
    expect(res.message).toBe(said(ACTIVITIES.statusChanged));
    expect(res.activity).toMatchObject({ status: 'Završena', datumZavrsetka: today, boja: 'green', dozvole: { menjanje: false } });
    const a2 = api.ok(await api.get(T.izv, 'A2'));
    expect(a2.activity).toMatchObject({ status: 'U toku', datumPocetka: today, rokZavrsetka: addDays(today, 10), version: 0 });
    // A2's connected activity is A1 with its documents and data.
    expect(a2.connected).toEqual([
      expect.objectContaining({ kratakNaziv: 'A1', status: 'Završena', podaci: [expect.objectContaining({ key: 'DuzinaTrase' })] }),
    ]);
    expect(a2.connected[0].fajlovi).toHaveLength(2);
    await api.refused(() => api.upload(T.izv, 'A1', [pdf()], { userInput: team.settlements[0]?.id }), 409, ACTIVITIES.notInProgress);
    await api.refused(() => api.data(T.izv, 'A1', [{ key: 'DuzinaTrase', vrednost: '1', ref: team.settlements[0]?.id }]), 409);
  });
});

describe('A2 to A4: dates, revised values, the IOL choice', () => {
  it('A2 checks its date and numbers on the server, then finishes and starts A3 and A4', async () => {
    await api.refused(() => api.status(T.izv, 'A2', 'Završena'), 400, ACTIVITIES.enterField('datum'));
    await api.refused(() => api.data(T.izv, 'A2', [{ key: 'Datum', naziv: 'Datum', vrednost: tomorrow }]), 400, ACTIVITIES.futureDate);
    const future = await api.data(T.izv, 'A2', [{ key: 'Datum', naziv: 'Datum', vrednost: tomorrow }]);
    expect(future.json().errors).toEqual({ Datum: said(ACTIVITIES.futureDate) });
    await api.refused(() => api.data(T.izv, 'A2', [{ key: 'Datum', vrednost: '2025-02-30' }]), 400, ACTIVITIES.enterField('datum'));
    await api.refused(() => api.data(T.izv, 'A2', [{ key: 'RevidiranaVrednost', vrednost: 'mnogo' }]), 400, ACTIVITIES.validNumber);
    await api.refused(
      () => api.data(T.izv, 'A2', [{ key: 'Ijos', vrednost: holders[0]?.id }]),
      400,
      ACTIVITIES.keyNotAllowed(asTyped('Ijos')),
    );
    await api.refused(() => api.data(T.nar, 'A2', [{ key: 'Datum', vrednost: today }]), 403, ACTIVITIES.notResponsible);
    await api.refused(() => api.data(T.manager, 'A2', [{ key: 'Datum', vrednost: today }]), 403);
    const a2Id = await api.idOf('A2');
    await api.refused(() => t.call({ method: 'PATCH', url: `/api/activity/${a2Id}`, token: T.izv, payload: { podaci: 'Datum' } }), 400);
    // Nothing of a request is kept when one item is refused.
    await api.refused(
      () =>
        api.data(T.izv, 'A2', [
          { key: 'Datum', vrednost: today },
          { key: 'RevidiranaDuzinaKlastera', vrednost: '-5' },
        ]),
      400,
    );
    const saved = api.ok(
      await api.data(T.izv, 'A2', [
        { key: 'Datum', naziv: 'Datum', vrednost: '2025-01-10' },
        { key: 'RevidiranaDuzinaKlastera', naziv: 'Revidirana dužina', vrednost: '1520,75' },
        { key: 'RevidiranaVrednost', naziv: '', vrednost: '2500000' },
        { key: 'DodatnaTaksa', naziv: 'Republička taksa', vrednost: '320' },
      ]),
    );
    // The same key replaces; an empty value removes; an additional fee is replaced by its name.
    const again = api.ok(
      await api.data(T.izv, 'A2', [
        { key: 'Datum', naziv: 'Datum', vrednost: today },
        { key: 'RevidiranaVrednost', vrednost: '' },
        { key: 'DodatnaTaksa', naziv: 'republička taksa', vrednost: '450,5' },
      ]),
    );
    expect(saved.activity.podaci).toHaveLength(4);
    expect(again.activity.podaci).toEqual([
      { key: 'Datum', naziv: 'Datum', vrednost: today },
      { key: 'RevidiranaDuzinaKlastera', naziv: 'Revidirana dužina', vrednost: '1520.75' },
      { key: 'DodatnaTaksa', naziv: 'republička taksa', vrednost: '450.5' },
    ]);
    api.ok(await api.status(T.izv, 'A2', 'Završena'));
    expect(await statuses(['A3', 'A4', 'A5'])).toEqual({ A3: 'U toku', A4: 'U toku', A5: 'Nije započeta' });
  });

  it('A3: "Nije potrebna IOL" needs a file; A5 waits for A4.1', async () => {
    await api.refused(() => api.status(T.izv, 'A3', 'Završena'), 400, ACTIVITIES.required);
    await api.refused(() => api.data(T.izv, 'A3', [{ key: 'DaNe', vrednost: 'Možda' }]), 400, ACTIVITIES.chooseOutcome);
    expect(api.ok(await api.data(T.izv, 'A3', [{ key: 'DaNe', vrednost: 'Ne' }])).activity.podaci).toEqual([
      { key: 'DaNe', naziv: 'Informacija o lokaciji', vrednost: 'Nije potrebna IOL' },
    ]);
    await api.refused(() => api.status(T.izv, 'A3', 'Završena'), 400, ACTIVITIES.filesNeeded(1));
    await uploadAndFinish(T.izv, 'A3', 'Obrazloženje.pdf');
    expect(await statusOf('A5')).toBe('Nije započeta');
  });

  it('A4 finishes with its IDR and starts the control A4.1', async () => {
    await api.refused(() => api.status(T.izv, 'A4', 'Završena'), 400, ACTIVITIES.filesNeeded(1));
    await uploadAndFinish(T.izv, 'A4', 'IDR.pdf');
    expect(api.ok(await api.get(T.nad, 'A4.1')).activity).toMatchObject({ status: 'U toku', version: 0, kontrolna: true, revizija: 0 });
  });
});

describe('A4.1 sends A4 back, then accepts the revision', () => {
  it('a control is resolved by its decision, by supervision only', async () => {
    await api.refused(() => api.status(T.nad, 'A4.1', 'Završena'), 400, ACTIVITIES.isControl);
    await api.refused(() => api.control(T.izv, 'A4.1', false), 403, ACTIVITIES.notResponsible);
    await api.refused(() => api.control(T.manager, 'A4.1', false), 403);
    await api.refused(() => api.control(T.admin, 'A4.1', false), 403);
    await api.refused(() => api.control(T.izv, 'A4', false), 400, ACTIVITIES.notControl);
    await api.refused(
      () => t.call({ method: 'POST', url: '/api/activity/control/', token: T.nad, payload: { faults: 'da', ctrlId: 'x' } }),
      400,
    );
  });

  it("'Sa primedbama' finishes A4.1 with remarks and reopens A4 as revision 1", async () => {
    api.ok(await api.upload(T.nad, 'A4.1', [pdf('Primedbe.pdf')]));
    const res = api.ok(await api.control(T.nad, 'A4.1', true));
    expect(res.activity).toMatchObject({ status: 'Završena', faults: true, userFields: { faults: true } });
    const reopened = api.ok(await api.get(T.izv, 'A4'));
    const a4 = reopened.activity;
    // The contractor reads the remarks where the work is redone: the control is among the connected.
    expect(reopened.connected.map((c: { kratakNaziv: string }) => c.kratakNaziv)).toEqual(['A2', 'A4.1']);
    expect(reopened.connected[1].fajlovi.map((f: { originalnoIme: string }) => f.originalnoIme)).toEqual(['Primedbe.pdf']);
    expect(reopened.connected.map((c: { returned: number }) => c.returned)).toEqual([0, 0]);
    expect(a4).toMatchObject({
      status: 'U toku',
      returned: 1,
      revizija: 1,
      datumPocetka: today,
      datumZavrsetka: null,
      rokZavrsetka: addDays(today, 30),
    });
    expect(await statusOf('A5')).toBe('Nije započeta');
    await api.refused(() => api.control(T.nad, 'A4.1', false), 409, ACTIVITIES.notInProgress);
    const [log] = await t.db
      .select()
      .from(auditLogs)
      .where(like(auditLogs.message, '%razrešio kontrolu A4.1%Sa primedbama%A4 vraćena na doradu%'));
    expect(log).toBeTruthy();
  });

  it("the first revision's file no longer counts nor can be deleted; the new one is named _revizija=1", async () => {
    const [old] = await api.liveFiles('A4');
    await api.refused(
      () => t.call({ method: 'DELETE', url: `/api/files/activity/${team.cluster.id}/${old?.activityId}/${old?.id}`, token: T.izv }),
      409,
      ACTIVITIES.oldRevisionFile,
    );
    await api.refused(() => api.status(T.izv, 'A4', 'Završena'), 400, ACTIVITIES.filesNeeded(1));
    const up = api.ok(await api.upload(T.izv, 'A4', [pdf('IDR.pdf')]));
    expect(up.activity.fajlovi.map((f: { originalnoIme: string; revizija: number }) => [f.originalnoIme, f.revizija])).toEqual([
      ['IDR.pdf', 0],
      ['IDR_revizija=1.pdf', 1],
    ]);
    api.ok(await api.status(T.izv, 'A4', 'Završena'));
    const controlDetail = api.ok(await api.get(T.nad, 'A4.1'));
    const control = controlDetail.activity;
    expect(control).toMatchObject({ status: 'U toku', version: 1, revizija: 1, faults: null, datumZavrsetka: null });
    // The control reads A4 in revision 1: its files of revision 1 are the current ones.
    const checked = controlDetail.connected.find((c: { kratakNaziv: string }) => c.kratakNaziv === 'A4');
    expect(checked.returned).toBe(1);
    expect(checked.fajlovi.map((f: { revizija: number }) => f.revizija)).toEqual([0, 1]);
  });

  it("'Bez primedbi' finishes A4.1; with A3 done, A5 starts", async () => {
    api.ok(await api.control(T.nad, 'A4.1', false));
    expect(await activityRow(t, team.cluster.id, 'A4.1')).toMatchObject({ status: 'Završena', faults: false, version: 1 });
    expect(api.ok(await api.get(T.izv, 'A5')).activity).toMatchObject({ status: 'U toku', version: 0 });
  });
});

describe('A5 and A5.1: the LU, rejected once, then placed into A6', () => {
  it('A5 takes its date and CEOP number', async () => {
    api.ok(
      await api.data(T.izv, 'A5', [
        { key: 'Datum', vrednost: today },
        { key: 'CEOPBroj', vrednost: 'ROP-ZLA-1234-LOC-1/2025' },
      ]),
    );
    api.ok(await api.status(T.izv, 'A5', 'Završena'));
    expect(await statusOf('A5.1')).toBe('U toku');
  });

  it("'Odbijen IDR' sends A4 back; the chain runs again, the control restarting each time", async () => {
    await api.refused(() => api.control(T.izv, 'A5.1', false), 400, `${ACTIVITIES.enterField('datum')} ${ACTIVITIES.filesNeeded(1)}`);
    api.ok(await api.upload(T.izv, 'A5.1', [pdf('Rešenje o odbijanju.pdf')]));
    api.ok(await api.control(T.izv, 'A5.1', true));
    expect(await activityRow(t, team.cluster.id, 'A4')).toMatchObject({ status: 'U toku', returned: 2 });
    expect(await activityRow(t, team.cluster.id, 'A6')).toMatchObject({ status: 'Nije započeta' });

    const up = api.ok(await api.upload(T.izv, 'A4', [pdf('IDR.pdf')]));
    expect(up.activity.fajlovi.at(-1)).toMatchObject({ originalnoIme: 'IDR_revizija=2.pdf', revizija: 2 });
    api.ok(await api.status(T.izv, 'A4', 'Završena'));
    expect(await activityRow(t, team.cluster.id, 'A4.1')).toMatchObject({ status: 'U toku', version: 2 });
    api.ok(await api.control(T.nad, 'A4.1', false));
    // A5 was finished: it runs again (version 1) and keeps its data, which may be changed.
    expect(await activityRow(t, team.cluster.id, 'A5')).toMatchObject({ status: 'U toku', version: 1, returned: 0 });
    api.ok(await api.status(T.izv, 'A5', 'Završena'));
    expect(await activityRow(t, team.cluster.id, 'A5.1')).toMatchObject({ status: 'U toku', version: 1, faults: null });
  });

  it("'Dobijeni LU' finishes A5.1 and A6 with a copy of the LU, and starts A6.1", async () => {
    await api.refused(() => api.data(T.izv, 'A5.1', [{ key: 'Datum', vrednost: tomorrow }]), 400, ACTIVITIES.futureDate);
    api.ok(
      await api.data(T.izv, 'A5.1', [
        { key: 'Datum', vrednost: today },
        { key: 'Taksa', vrednost: '12000' },
      ]),
    );
    // The rejection of version 0 is no LU of version 1.
    await api.refused(() => api.control(T.izv, 'A5.1', false), 400, ACTIVITIES.filesNeeded(1));
    const up = api.ok(await api.upload(T.izv, 'A5.1', [pdf('LU.pdf')]));
    expect(up.activity.fajlovi.at(-1).originalnoIme).toBe('LU_revizija=1.pdf');
    api.ok(await api.control(T.izv, 'A5.1', false));
    const a6 = api.ok(await api.get(T.piu, 'A6')).activity;
    expect(a6).toMatchObject({ status: 'Završena', datumZavrsetka: today, dozvole: { menjanje: false, reaktivacija: false } });
    expect(a6.fajlovi).toHaveLength(1);
    const [lu] = await api.liveFiles('A5.1').then((f) => f.filter((x) => x.revision === 1));
    expect(a6.fajlovi[0]).toMatchObject({ originalnoIme: 'LU_revizija=1.pdf', size: lu?.size });
    expect(a6.fajlovi[0].fajl).not.toBe(lu?.storedName);
    const download = await t.call({
      method: 'GET',
      url: `/api/files/activity/${team.cluster.id}/${a6._id}/${a6.fajlovi[0]._id}`,
      token: T.piu,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await statusOf('A6.1')).toBe('U toku');
    // A6 is the system's: nobody finishes or uploads to it.
    await api.refused(() => api.status(T.piu, 'A6', 'Završena'), 400, ACTIVITIES.automatic);
    await api.refused(() => api.data(T.piu, 'A6', [{ key: 'Datum', vrednost: today }]), 403);
  });

  it('kept a log of every step, naming the action, the activity and the cluster', async () => {
    const text = await logText();
    for (const part of [
      'je završio aktivnost A2 na klasteru Zlatibor Tok (pokrenute: A3, A4)',
      'je razrešio kontrolu A5.1 na klasteru Zlatibor Tok: Dobijeni LU (završene automatski: A6; pokrenute: A6.1)',
      'je dodao dokumente (IDR_revizija=1.pdf) na aktivnost A4 na klasteru Zlatibor Tok',
    ])
      expect(text).toContain(part);
    const files = await t.db
      .select()
      .from(activityFiles)
      .where(eq(activityFiles.activityId, await api.idOf('A4')));
    expect(files).toHaveLength(3);
  });
});
