import { ACTIVITY_CATALOGUE, FINISHED } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { C1, C2, C3, C4, D, expectedIjo, expectedSummary, finishedOf, get, H, K1, setupReports, t, tok } from './reportsSetup.js';

setupReports();

describe('summary', () => {
  it('counts, per catalogue activity, the visible clusters that finished it; filtered by contract', async () => {
    for (const [token, visible] of [
      [tok.admin, [C1, C2, C3, C4]],
      [tok.nar, [C1, C2, C3, C4]],
      [tok.izvA, [C1, C2]],
      [tok.izvB, [C3, C4]],
      [tok.managerA, [C1, C2]],
    ] as const) {
      const expected = expectedSummary(await finishedOf(visible.map((c) => c.id)));
      const body = await get('/api/report/summary', token);
      expect(body.totalClusters).toBe(visible.length);
      expect(body.summary).toHaveLength(ACTIVITY_CATALOGUE.length);
      expect(body.summary[0]).toMatchObject({ kratakNaziv: 'A1', naziv: expect.any(String) });
      for (const row of body.summary) expect(row.count, row.kratakNaziv).toBe(expected[row.kratakNaziv] ?? 0);
    }
    const expected = expectedSummary(await finishedOf([C1.id, C2.id]));
    const onK1 = await get(`/api/report/summary?contract=${K1.id}`, tok.admin);
    expect(onK1.totalClusters).toBe(2);
    for (const row of onK1.summary) expect(row.count).toBe(expected[row.kratakNaziv] ?? 0);
    expect(onK1.summary.find((r: { kratakNaziv: string }) => r.kratakNaziv === 'A1').count).toBe(2);
    // The sibling company sees nothing of contract 1.
    const sibling = await get(`/api/report/summary?contract=${K1.id}`, tok.izvB);
    expect(sibling.totalClusters).toBe(0);
    expect(sibling.summary.every((r: { count: number }) => r.count === 0)).toBe(true);
    expect((await t.call({ method: 'GET', url: '/api/report/summary?contract=nije-id', token: tok.admin })).statusCode).toBe(400);
    const names = async (token: string) => (await get('/api/report/contracts', token)).contracts.map((c: { naziv: string }) => c.naziv);
    expect(await names(tok.admin)).toEqual(['Ugovor Dva', 'Ugovor Jedan']);
    expect(await names(tok.izvB)).toEqual(['Ugovor Dva']);
  });
});

describe('finished', () => {
  it('lists the visible clusters with their finished activities, dates and on-time marks, by name, paged', async () => {
    const finished = await finishedOf([C1.id, C2.id, C3.id, C4.id]);
    const body = await get('/api/report/finished?page=1&limit=10', tok.admin);
    expect(body.totalResults).toBe(4);
    // Serbian order: Alfa Dva, Alfa Jedan, Beta Četiri, Beta Tri.
    expect(body.clusters.map((c: { klaster: string }) => c.klaster)).toEqual(['Alfa Dva', 'Alfa Jedan', 'Beta Četiri', 'Beta Tri']);
    for (const row of body.clusters) {
      const list = finished.get(row._id) ?? [];
      expect(row.zavrsene.map((a: { kratakNaziv: string }) => a.kratakNaziv)).toEqual(list.map((a) => a.code));
      let late = 0;
      for (const a of list) if (a.deadline && a.end && a.end > a.deadline) late++;
      expect(row.kasni).toBe(late);
      expect(row.uRoku).toBe(list.length - late);
    }
    const c1 = body.clusters.find((c: { _id: string }) => c._id === C1.id);
    expect(c1.ugovor).toMatchObject({ _id: K1.id, naziv: 'Ugovor Jedan' });
    // A1 finished 40 days ago within its 15 days; A2 started then and finished 30 days later, past its deadline.
    expect(c1.zavrsene[0]).toMatchObject({ kratakNaziv: 'A1', datumZavrsetka: D(40), uRoku: true });
    expect(c1.zavrsene[1]).toMatchObject({ kratakNaziv: 'A2', datumZavrsetka: D(10), uRoku: false });
    const page2 = await get('/api/report/finished?page=2&limit=3', tok.admin);
    expect(page2.clusters.map((c: { klaster: string }) => c.klaster)).toEqual(['Beta Tri']);
    expect(page2.totalResults).toBe(4);
    const sibling = await get('/api/report/finished?page=1&limit=10', tok.izvB);
    expect(sibling.clusters.map((c: { _id: string }) => c._id).sort()).toEqual([C3.id, C4.id].sort());
  });
});

describe('per activity', () => {
  it("gives every visible cluster's record of the activity with its data and files, searchable", async () => {
    const body = await get('/api/report/A7?page=1&limit=10', tok.admin);
    expect(body.activity).toMatchObject({ kratakNaziv: 'A7' });
    expect(body.totalResults).toBe(4);
    const c1 = body.rows.find((r: { klaster: { _id: string } }) => r.klaster._id === C1.id);
    expect(c1).toMatchObject({ status: 'U toku', datumPocetka: D(10), ugovor: { _id: K1.id } });
    expect(c1.podaci).toEqual(expect.arrayContaining([{ key: 'A7Taksa', naziv: expect.any(String), vrednost: '15000.5', ref: H.H1.id }]));
    const c2 = body.rows.find((r: { klaster: { _id: string } }) => r.klaster._id === C2.id);
    expect(c2.status).toBe(FINISHED);
    expect(c2.fajlovi).toHaveLength(2);
    const a1 = await get('/api/report/a1?page=1&limit=10', tok.izvA);
    expect(a1.rows.map((r: { klaster: { naziv: string } }) => r.klaster.naziv)).toEqual(['Alfa Dva', 'Alfa Jedan']);
    expect(a1.rows[1].fajlovi.map((f: { originalnoIme: string }) => f.originalnoIme)).toEqual([
      'Trasa Sirogojno.pdf',
      'Trasa Rožanstvo.pdf',
    ]);
    const found = await get(
      `/api/report/A1?page=1&limit=10&eng=${encodeURIComponent('beta tri')}&srb=${encodeURIComponent('бета три')}`,
      tok.admin,
    );
    expect(found.rows.map((r: { klaster: { _id: string } }) => r.klaster._id)).toEqual([C3.id]);
    expect((await get('/api/report/A1?page=1&limit=10&eng=alfa', tok.izvB)).totalResults).toBe(0);
    // Under a general contract, counted with and without a search (the count reads the clusters only then).
    const onK1 = await get(`/api/report/A7?page=1&limit=1&contract=${K1.id}`, tok.admin);
    expect(onK1.rows.map((r: { klaster: { _id: string } }) => r.klaster._id)).toEqual([C2.id]);
    expect(onK1.totalResults).toBe(2);
    const onK1Found = await get(`/api/report/A7?page=1&limit=10&contract=${K1.id}&eng=jedan`, tok.admin);
    expect(onK1Found.rows.map((r: { klaster: { _id: string } }) => r.klaster._id)).toEqual([C1.id]);
    expect(onK1Found.totalResults).toBe(1);
    const unknown = await t.call({ method: 'GET', url: '/api/report/A99', token: tok.admin });
    expect(unknown.statusCode).toBe(404);
  });

  it("zips the activity's documents of the visible clusters only, a folder per cluster", async () => {
    const res = await t.call({ method: 'GET', url: '/api/report/A1/zip', token: tok.izvA });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const body = res.rawPayload.toString('latin1');
    const name = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
    expect(body).toContain(name('Alfa Jedan/Trasa Sirogojno.pdf'));
    expect(body).toContain(name('Alfa Dva/Trasa Kremna.pdf'));
    expect(body).not.toContain('Beta');
    const sibling = await t.call({ method: 'GET', url: '/api/report/A1/zip', token: tok.izvB });
    expect(sibling.rawPayload.toString('latin1')).not.toContain('Alfa');
  });
});

describe('IJO taxes', () => {
  const sum = (list: { naziv: string; sum: number }[]) => Object.fromEntries(list.map((c) => [c.naziv, c.sum]));

  it('gives one row per A7 holder entry with payer, status and fee, and the totals', async () => {
    for (const [token, visible] of [
      [tok.admin, [C1, C2, C3, C4]],
      [tok.izvA, [C1, C2]],
      [tok.izvB, [C3, C4]],
    ] as const) {
      const expected = expectedIjo(visible);
      const body = await get('/api/report/ijo-takse', token);
      expect(body.totalResults).toBe(expected.rows.length);
      expect(
        body.rows.map(
          (r: { klasterId: string; imaocId: string; status: boolean; taksa: number; zaduzen: string; izvodjacNaziv?: string }) => [
            r.klasterId,
            r.imaocId,
            r.status,
            r.taksa,
            r.zaduzen,
            r.izvodjacNaziv,
          ],
        ),
      ).toEqual(
        expect.arrayContaining(
          expected.rows.map((e) => [
            e.cluster.id,
            H[e.holder].id,
            e.checked,
            e.fee,
            H[e.holder].odgovoran,
            H[e.holder].odgovoran === 'Izvođač' ? e.contractor : undefined,
          ]),
        ),
      );
      expect(body.narucilacTotal).toBeCloseTo(expected.narucilacTotal, 2);
      expect(body.izvodjaciTotal).toBeCloseTo(expected.izvodjaciTotal, 2);
      expect(body.totalTax).toBeCloseTo(expected.totalTax, 2);
      expect(sum(body.byContractor)).toEqual(expected.byContractor);
    }
    const admin = await get('/api/report/ijo-takse', tok.admin);
    expect(admin.rows[0]).toMatchObject({ ugovor: 'Ugovor Jedan', klaster: 'Alfa Dva', imaoc: expect.any(String) });
    expect(admin.totalTax).toBe(17800.5);
  });

  it('filters by contract and payer (either script, with or without diacritics)', async () => {
    for (const [query, filter] of [
      [`contract=${K1.id}`, { contract: K1.id }],
      ['payer=Naručilac', { payer: 'Naručilac' }],
      ['payer=izvodjac', { payer: 'Izvođač' }],
      [`payer=${encodeURIComponent('Наручилац')}&contract=${K1.id}`, { payer: 'Naručilac', contract: K1.id }],
    ] as const) {
      const expected = expectedIjo([C1, C2, C3, C4], filter);
      const body = await get(`/api/report/ijo-takse?${query}`, tok.admin);
      expect(body.totalResults, query).toBe(expected.rows.length);
      expect(body.totalTax, query).toBeCloseTo(expected.totalTax, 2);
      expect(body.narucilacTotal, query).toBeCloseTo(expected.narucilacTotal, 2);
    }
    const paged = await get('/api/report/ijo-takse?page=2&limit=2', tok.admin);
    expect(paged.rows).toHaveLength(2);
    expect(paged.totalResults).toBe(5);
    expect(paged.totalTax).toBe(17800.5);
    expect((await t.call({ method: 'GET', url: '/api/report/ijo-takse?payer=niko', token: tok.admin })).statusCode).toBe(400);
  });
});

describe('route lengths', () => {
  it('A1: metres per cluster and settlement; A9: per cluster; only visible clusters', async () => {
    const a1 = await get('/api/report/duzine/A1?page=1&limit=50', tok.admin);
    expect(a1.totalResults).toBe(5);
    expect(a1.ukupno).toBe(1200.5 + 800);
    const c1 = a1.rows.filter((r: { klaster: { _id: string } }) => r.klaster._id === C1.id);
    expect(c1.map((r: { naselje: { naziv: string }; duzina: number }) => [r.naselje.naziv, r.duzina])).toEqual([
      ['Sirogojno', 1200.5],
      ['Rožanstvo', 800],
    ]);
    const a9 = await get('/api/report/duzine/a9?page=1&limit=50', tok.admin);
    expect(a9.totalResults).toBe(4);
    expect(a9.ukupno).toBe(850.25);
    expect(a9.rows.find((r: { klaster: { _id: string } }) => r.klaster._id === C2.id)).toMatchObject({ duzina: 850.25, naselje: null });
    const sibling = await get('/api/report/duzine/A1?page=1&limit=50', tok.izvB);
    expect(sibling.totalResults).toBe(2);
    expect(sibling.ukupno).toBe(0);
    expect((await get('/api/report/duzine/A12', tok.izvA)).totalResults).toBe(2);
    expect((await t.call({ method: 'GET', url: '/api/report/duzine/A2', token: tok.admin })).statusCode).toBe(404);
  });
});
