import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ACTIVITIES, COMMON } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { said, useTestApp } from '../../../test/harness.js';
import { activityFiles } from '../../db/schema-activities.js';
import { driveCluster } from '../../seed/drive.js';
import { createCluster, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { activityRow, client, createTeam, pdf, type Team } from '../activities/testing.js';
import { type FilePart, minimalDocx, storedZip } from '../contracts/testDocuments.js';
import type { FileDeps } from './service.js';

/** Activity documents: what an upload may be, downloads, deletes and zips, and who may do which. */
const t = useTestApp();
let team: Team;
let deps: FileDeps;
let api: ReturnType<typeof client>;
let clusterId: string;

beforeAll(async () => {
  team = await createTeam(t, 'Fajlovi');
  deps = { db: t.db, store: activityFileStore(t.ctx.config.dataDir) };
  clusterId = team.cluster.id;
  api = client(t, clusterId);
  await driveCluster(deps, clusterId, { until: 'A3' });
});

const filesOnDisk = async () => readdir(path.join(t.ctx.config.dataDir, 'files')).catch(() => [] as string[]);
const part = (name: string, content: Buffer | string): FilePart => ({ field: 'fajl1', name, content: Buffer.from(content) });

async function xlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Merenja').addRow(['km', 'dB']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const KML = '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>';

async function entriesOf(zip: Buffer): Promise<{ name: string; size: number }[]> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const names: { name: string; size: number }[] = [];
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (e: yauzl.Entry) => {
      names.push({ name: e.fileName, size: e.uncompressedSize });
      file.readEntry();
    });
    file.on('end', () => resolve());
    file.on('error', reject);
    file.readEntry();
  });
  return names;
}

describe('uploading activity documents', () => {
  it('takes documents, drawings and survey files by their content', async () => {
    const sor = Buffer.alloc(64);
    sor.write('Map\u0000', 0, 'latin1');
    const cases: [FilePart, string][] = [
      [pdf('Idejno rešenje.pdf'), 'application/pdf'],
      [part('Zapisnik.docx', minimalDocx('Zapisnik')), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [part('Merenja.xlsx', await xlsx()), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      [part('Foto.JPG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46])), 'image/jpeg'],
      [part('Skica.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])), 'image/png'],
      [part('Trasa.dwg', Buffer.concat([Buffer.from('AC1032'), Buffer.alloc(100)])), 'image/vnd.dwg'],
      [part('Trasa.dxf', '  0\r\nSECTION\r\n  2\r\nHEADER\r\n  0\r\nENDSEC\r\n  0\r\nEOF\r\n'), 'image/vnd.dxf'],
      [part('Trasa.kml', KML), 'application/vnd.google-earth.kml+xml'],
      [part('Trasa.kmz', storedZip([{ name: 'doc.kml', data: Buffer.from(KML) }])), 'application/vnd.google-earth.kmz'],
      [part('Snimci.zip', storedZip([{ name: 'a.txt', data: Buffer.from('a') }])), 'application/zip'],
      [part('OTDR vlakno 1.sor', sor), 'application/octet-stream'],
    ];
    for (const [file, mimetype] of cases) {
      const res = await api.upload(team.tokens.izv, 'A4', [file], { isRequired: false });
      expect(res.statusCode, `${file.name}: ${res.body}`).toBe(200);
      expect(res.json().activity.fajlovi.at(-1)).toMatchObject({ originalnoIme: file.name, mimetype, isRequired: false });
    }
  });

  it('reads the ids of the path in any case (a UUID written in capitals names the same cluster)', async () => {
    const res = await api.upload(team.tokens.izv, 'A4', [pdf('Velika slova.pdf')], { locationId: team.cluster.id.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().activity.fajlovi.at(-1)).toMatchObject({ originalnoIme: 'Velika slova.pdf' });
  });

  it('stops a caller after 60 upload requests a minute (429 in Serbian); others go on', async () => {
    const token = await tokenFor(t.ctx, await createUser(t.db, { groupId: team.groups.izvTim.id, ime: 'Skripta', prezime: 'Skriptić' }));
    const bad = (tok: string) => api.upload(tok, 'A4', [pdf()], { version: 999_999 });
    for (let i = 0; i < 60; i++) expect((await bad(token)).statusCode).not.toBe(429);
    const res = await bad(token);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(said(COMMON.tooMany));
    expect((await bad(team.tokens.piu)).statusCode).not.toBe(429);
  });

  it('refuses content that is not what the name says, and keeps nothing of the request', async () => {
    const before = await filesOnDisk();
    for (const [file, field] of [
      [part('ugovor.pdf', 'samo tekst'), 'fajl1'],
      [part('program.exe', 'MZ'), 'fajl1'],
      [{ ...pdf('crtež.dwg'), field: 'fajl2' }, 'fajl2'],
      [part('mapa.kml', '<html><body>kml</body></html>'), 'fajl1'],
      [part('arhiva.kmz', storedZip([{ name: 'a.txt', data: Buffer.from('a') }])), 'fajl1'],
      [part('tabela.docx', await xlsx()), 'fajl1'],
    ] as [FilePart, string][]) {
      const res = await api.refused(() => api.upload(team.tokens.izv, 'A4', [pdf('dobar.pdf'), file]), 400, ACTIVITIES.wrongFileType);
      expect(res.json().errors, file.name).toEqual({ [field]: said(ACTIVITIES.wrongFileType) });
    }
    expect(await filesOnDisk()).toEqual(before);
  });

  it('takes a file up to 50 MB, refuses a larger one and more than 10 files', async () => {
    // Larger than a contract document may be, within the activity limit.
    const large = Buffer.alloc(30 * 1024 * 1024, 0x20);
    large.write('%PDF-1.4\n', 0, 'latin1');
    const accepted = api.ok(await api.upload(team.tokens.izv, 'A4', [part('Geodetski snimak.pdf', large)], { isRequired: false }));
    expect(accepted.activity.fajlovi.at(-1)).toMatchObject({ originalnoIme: 'Geodetski snimak.pdf', size: large.length });
    const before = await filesOnDisk();
    const big = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.4\n', 0, 'latin1');
    await api.refused(() => api.upload(team.tokens.izv, 'A4', [part('veliki.pdf', big)]), 400, ACTIVITIES.fileTooLarge);
    const many = Array.from({ length: 11 }, (_, i) => pdf(`d${i}.pdf`, `fajl${i + 1}`));
    await api.refused(() => api.upload(team.tokens.izv, 'A4', many), 400, ACTIVITIES.tooManyFiles);
    await api.refused(
      () => t.call({ method: 'PATCH', url: `/api/activity/A4/${clusterId}/x/false/0/true`, token: team.tokens.izv, payload: {} }),
      404,
    );
    const a4 = await activityRow(t, clusterId, 'A4');
    await api.refused(
      () => t.call({ method: 'PATCH', url: `/api/activity/A4/${clusterId}/${a4.id}/false/nula/true`, token: team.tokens.izv, payload: {} }),
      400,
    );
    await api.refused(
      () =>
        t.call({ method: 'PATCH', url: `/api/activity/A4/${clusterId}/${a4.id}/false/0/true`, token: team.tokens.izv, payload: { a: 1 } }),
      400,
      ACTIVITIES.noFiles,
    );
    await api.refused(() => api.upload(team.tokens.izv, 'A4', [pdf()], { locationId: team.contract.id }), 404);
    expect(await filesOnDisk()).toEqual(before);
  });
});

describe('downloading and deleting', () => {
  let fileId: string;
  let activityId: string;
  const url = () => `/api/files/activity/${clusterId}/${activityId}/${fileId}`;

  beforeAll(async () => {
    const res = api.ok(await api.upload(team.tokens.izv, 'A4', [pdf('Идејно решење „Златибор“.pdf')]));
    const file = res.activity.fajlovi.at(-1);
    fileId = file._id;
    activityId = res.activity._id;
  });

  it('downloads with the original name to whoever sees the cluster', async () => {
    for (const token of [team.tokens.nad, team.tokens.manager, team.tokens.admin, team.tokens.nar]) {
      const res = await t.call({ method: 'GET', url: url(), token });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="Idejno resenje _Zlatibor_.pdf"; filename*=UTF-8''${encodeURIComponent('Идејно решење „Златибор“.pdf')}`,
      );
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect((await t.call({ method: 'GET', url: url(), token: team.tokens.sibling })).statusCode).toBe(404);
    const elsewhere = await createCluster(t.db, { naziv: 'Drugi Fajlovi', groupIds: [team.groups.izv.id] });
    const wrong = await t.call({
      method: 'GET',
      url: `/api/files/activity/${elsewhere.id}/${activityId}/${fileId}`,
      token: team.tokens.izv,
    });
    expect(wrong.statusCode).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `/api/files/activity/${clusterId}/${activityId}/nije-id`, token: team.tokens.izv })).statusCode,
    ).toBe(404);
  });

  it('deletes only by a responsible employee; the record and the stored file stay', async () => {
    for (const token of [team.tokens.nad, team.tokens.admin, team.tokens.manager])
      await api.refused(() => t.call({ method: 'DELETE', url: url(), token }), 403, ACTIVITIES.notResponsible);
    await api.refused(() => t.call({ method: 'DELETE', url: url(), token: team.tokens.sibling }), 404);
    const disk = await filesOnDisk();
    const res = await t.call({ method: 'DELETE', url: url(), token: team.tokens.izv });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(said(ACTIVITIES.fileDeleted));
    expect(res.json().activity.fajlovi.map((f: { _id: string }) => f._id)).not.toContain(fileId);
    const [row] = await t.db.select().from(activityFiles).where(eq(activityFiles.id, fileId));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(await filesOnDisk()).toEqual(disk);
    expect((await t.call({ method: 'GET', url: url(), token: team.tokens.izv })).statusCode).toBe(404);
    await api.refused(() => t.call({ method: 'DELETE', url: url(), token: team.tokens.izv }), 404);
  });

  it('keeps the files of a finished activity', async () => {
    const [a3file] = await api.liveFiles('A1');
    await api.refused(
      () =>
        t.call({ method: 'DELETE', url: `/api/files/activity/${clusterId}/${a3file?.activityId}/${a3file?.id}`, token: team.tokens.izv }),
      409,
      ACTIVITIES.finishedNoChanges,
    );
  });
});

describe('zips', () => {
  it("an activity's live documents, to whoever sees the cluster, named once each", async () => {
    api.ok(await api.upload(team.tokens.izv, 'A4', [pdf('Isti.pdf')], { isRequired: false }));
    api.ok(await api.upload(team.tokens.izv, 'A4', [pdf('Isti.pdf')], { isRequired: false }));
    const a4 = await activityRow(t, clusterId, 'A4');
    const res = await t.call({ method: 'GET', url: `/api/files/zip?activityName=${a4.id}&directory=${clusterId}`, token: team.tokens.nad });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Zlatibor Fajlovi - A4.zip')}`);
    const names = (await entriesOf(res.rawPayload)).map((e) => e.name);
    const live = (await api.liveFiles('A4')).map((f) => f.originalnoIme);
    expect(names).toHaveLength(live.length);
    expect(names).toContain('Isti.pdf');
    expect(names).toContain('Isti (2).pdf');
    expect(names).not.toContain('Идејно решење „Златибор“.pdf');
    expect(
      (await t.call({ method: 'GET', url: `/api/files/zip?activityName=${a4.id}&directory=${clusterId}`, token: team.tokens.sibling }))
        .statusCode,
    ).toBe(404);
    const other = await createCluster(t.db, { naziv: 'Treći Fajlovi', groupIds: [team.groups.izv.id] });
    expect(
      (await t.call({ method: 'GET', url: `/api/files/zip?activityName=${a4.id}&directory=${other.id}`, token: team.tokens.izv }))
        .statusCode,
    ).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/files/zip?activityName=${a4.id}`, token: team.tokens.izv })).statusCode).toBe(404);
  });

  it("all of a cluster's documents, in a folder per activity, for the Admin and a sees-all group only", async () => {
    const all = `/api/files/zip?directory=${clusterId}`;
    const refused = await t.call({ method: 'GET', url: all, token: team.tokens.izv });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(said(ACTIVITIES.allFilesForbidden));
    expect((await t.call({ method: 'GET', url: all, token: team.tokens.manager })).statusCode).toBe(403);
    const ministry = await createGroup(t.db, { naziv: 'Ministarstvo sve Fajlovi', type: 'NARUCILAC', sveVideci: true });
    const seesAll = await tokenFor(t.ctx, await createUser(t.db, { groupId: ministry.id }));
    for (const token of [team.tokens.admin, seesAll]) {
      const res = await t.call({ method: 'GET', url: all, token });
      expect(res.statusCode).toBe(200);
      const names = (await entriesOf(res.rawPayload)).map((e) => e.name);
      expect(names.filter((n) => n.startsWith('A1/'))).toHaveLength(2);
      expect(names.some((n) => n.startsWith('A4/'))).toBe(true);
      expect(names.every((n) => /^A\d+(\.\d)?\//.test(n))).toBe(true);
    }
    const dto = api.ok(await api.get(seesAll, 'A4')).activity;
    expect(dto.dozvole.sviFajlovi).toBe(true);
  });
});
