import { asTyped, CLUSTERS, IMPORTS, USERS } from '@trasa/domain';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { auditLogs, mailOutbox, users } from '../../db/schema.js';
import { clusterGroups, clusterSettlements, clusters, contractClusters } from '../../db/schema-clusters.js';
import { createContract, createGroup, createOrgTree, createSettlement, createUser, tokenFor } from '../../seed/factories.js';
import {
  adminToken,
  clusterCount,
  csv,
  employeeToken,
  imported,
  settlementCount,
  setupImports,
  t,
  upload,
  userCount,
  xlsx,
} from './importsSetup.js';
import { NO_PASSWORD } from './users.js';

setupImports();
describe('POST /api/user/excel-import', () => {
  it('creates active accounts with the named role and group, mails each a link to set a password, and skips known e-mails', async () => {
    const group = await createGroup(t.db, { naziv: 'Uvoz Gradnja d.o.o.', cirilica: 'Увоз Градња д.о.о.', type: 'IZVODJAC' });
    await createUser(t.db, { email: 'postoji.vec@uvoz.rs' });
    const file = await xlsx([
      ['Име', 'Презиме', 'Имејл', 'Рола', 'Група'],
      ['Ана', 'Ilić', 'Ana.Ilic@Uvoz.rs', 'Rukovodilac', 'Увоз Градња д.о.о.'],
      ['Bojan', 'Perić', 'bojan.peric@uvoz.rs', '', 'uvoz gradnja d.o.o.'],
      ['Gordana', 'Gost', 'gordana@uvoz.rs', '', ''],
      ['Dejan', 'Admin', 'dejan@uvoz.rs', 'Admin', 'Uvoz Gradnja d.o.o.'],
      ['Nema', 'Mejla', 'nije-adresa', 'Zaposleni', 'Uvoz Gradnja d.o.o.'],
      ['Nepoznata', 'Grupa', 'ng@uvoz.rs', 'Zaposleni', 'Ne postoji'],
      ['Bez', 'Grupe', 'bg@uvoz.rs', 'Zaposleni', ''],
      ['Izmišljena', 'Rola', 'ir@uvoz.rs', 'Direktor', 'Uvoz Gradnja d.o.o.'],
      ['Ana', 'Ponovo', 'ana.ilic@uvoz.rs', 'Zaposleni', 'Uvoz Gradnja d.o.o.'],
      ['Već', 'Postoji', 'postoji.vec@uvoz.rs', 'Zaposleni', 'Uvoz Gradnja d.o.o.'],
    ]);
    const before = await userCount();
    const doc = await imported('user', file, 'korisnici.xlsx');
    const by = (red: number) => doc.importReport.find((r) => r.red === red);
    expect(doc.importReport.filter((r) => r.success).map((r) => r.naziv)).toEqual([
      'Ана Ilić',
      'Bojan Perić',
      'Gordana Gost',
      'Dejan Admin',
    ]);
    expect(by(5)?.warnings).toEqual([said(IMPORTS.groupIgnored)]);
    expect(by(6)?.errors).toEqual([said(IMPORTS.rowError(asTyped('nije-adresa'), USERS.emailInvalid))]);
    expect(by(7)?.errors).toEqual([said(IMPORTS.rowError(asTyped('ng@uvoz.rs'), IMPORTS.unknownGroup(asTyped('Ne postoji'))))]);
    expect(by(8)?.errors).toEqual([said(IMPORTS.rowError(asTyped('bg@uvoz.rs'), IMPORTS.groupNeeded))]);
    expect(by(9)?.errors).toEqual([said(IMPORTS.rowError(asTyped('ir@uvoz.rs'), IMPORTS.unknownRole(asTyped('Direktor'))))]);
    expect(by(10)?.errors).toEqual([
      said(IMPORTS.rowError(asTyped('ana.ilic@uvoz.rs'), `${IMPORTS.duplicateInFile} ${IMPORTS.duplicateEmailSuffix}`)),
    ]);
    expect(by(11)?.warnings).toEqual([said(IMPORTS.exists(`Корисник ${asTyped('postoji.vec@uvoz.rs')} ${IMPORTS.duplicateEmailSuffix}`))]);
    expect(await userCount()).toBe(before + 4);

    const ana = (
      await t.call({ method: 'GET', url: '/api/search/user?eng=ana.ilic&srb=ана.илиц&page=1&limit=10', token: adminToken })
    ).json();
    expect(ana.users).toHaveLength(1);
    expect(ana.users[0]).toMatchObject({ email: 'ana.ilic@uvoz.rs', status: 'aktivan', emailPotvrdjen: true, rola: 'Rukovodilac' });
    const [bojan] = await t.db.select().from(users).where(eq(users.email, 'bojan.peric@uvoz.rs'));
    expect(bojan).toMatchObject({ groupId: group.id, passwordHash: NO_PASSWORD });
    const [dejan] = await t.db.select().from(users).where(eq(users.email, 'dejan@uvoz.rs'));
    expect(dejan?.groupId).toBeNull();

    // No password works until the mailed link sets one.
    const login = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'bojan.peric@uvoz.rs', lozinka: 'Lozinka123' },
    });
    expect(NO_PASSWORD.startsWith('scrypt$')).toBe(false);
    expect(login.statusCode).toBe(401);
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'bojan.peric@uvoz.rs'));
    expect(mails).toHaveLength(1);
    const link = /http:\/\/trasa\.test\/\S+/.exec(mails[0]?.text ?? '')?.[0] ?? '';
    const params = new URL(link).searchParams;
    const set = await t.call({
      method: 'POST',
      url: '/api/user/reset-password',
      payload: { email: params.get('email'), resetCode: params.get('code'), password: 'NovaLozinka1', confirmPassword: 'NovaLozinka1' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const signedIn = await t.call({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: 'bojan.peric@uvoz.rs', lozinka: 'NovaLozinka1' },
    });
    expect(signedIn.statusCode).toBe(200);

    const again = await imported('user', file, 'korisnici.xlsx');
    expect(again.uvezeno).toBe(0);
    expect(await userCount()).toBe(before + 4);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'bojan.peric@uvoz.rs'))).toHaveLength(1);
    expect((await t.db.select().from(auditLogs).where(sql`${auditLogs.message} like '%uvezao 4 korisnika%'`)).length).toBe(1);
  });

  it('lets a Rukovodilac import only into their subtree and only the roles they may give', async () => {
    const tree = await createOrgTree(t.db);
    const token = await tokenFor(t.ctx, tree.manager);
    const doc = await imported(
      'user',
      csv([
        ['Ime', 'Prezime', 'Email', 'Rola', 'Grupa'],
        ['Lena', 'List', 'lena@stablo.rs', 'Zaposleni', tree.leaf.naziv],
        ['Rade', 'Koren', 'rade@stablo.rs', 'Zaposleni', tree.root.naziv],
        ['Ivan', 'Admin', 'ivan@stablo.rs', 'Admin', ''],
      ]),
      'k.csv',
      token,
    );
    expect(doc.importReport.map((r) => [r.success, r.errors])).toEqual([
      [true, []],
      [false, [said(IMPORTS.rowError(asTyped('rade@stablo.rs'), IMPORTS.unknownGroup(asTyped(tree.root.naziv))))]],
      [false, [said(IMPORTS.rowError(asTyped('ivan@stablo.rs'), IMPORTS.unknownRole(asTyped('Admin'))))]],
    ]);
    const [lena] = await t.db.select().from(users).where(eq(users.email, 'lena@stablo.rs'));
    expect(lena?.groupId).toBe(tree.leaf.id);
  });

  it('is refused to an employee', async () => {
    const res = await upload(
      'user',
      csv([
        ['Ime', 'Prezime', 'Email'],
        ['A', 'B', 'ab@x.rs'],
      ]),
      'k.csv',
      employeeToken,
    );
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /api/location/excel-import', () => {
  const HEADER = [
    'Кластер',
    'ID насеља',
    'Назив насеља',
    'Успутно насеље',
    'Одговорне групе',
    'Индикативна дужина кластера',
    'Уговорена вредност кластера',
    'Уговор',
  ];

  it('saves whole clusters with new and known settlements, groups, contract and numbers; a cluster with a bad row stays out; re-import changes nothing', async () => {
    const group = await createGroup(t.db, { naziv: 'Klaster Gradnja d.o.o.', type: 'IZVODJAC' });
    const second = await createGroup(t.db, { naziv: 'Klaster Nadzor d.o.o.', type: 'NADZOR' });
    const known = await createSettlement(t.db, { code: 'IMP-C-K', naziv: 'Poznato' });
    const contract = await createContract(t.db, { naziv: 'Opšti ugovor uvoz', broj: '404-IMP/2026' });
    const finished = await createContract(t.db, { naziv: 'Stari', broj: 'ST-1', status: 'Završen', datumZavrsetka: '2025-06-01' });
    const file = csv([
      HEADER,
      ['Klaster Uvoz A', 'IMP-C-K', '', 'ne', 'Klaster Gradnja d.o.o., Klaster Nadzor d.o.o.', '12,5', '1000000.50', '404-IMP/2026'],
      ['Klaster Uvoz A', 'IMP-C-1', 'Novo Selo', 'da', 'Klaster Gradnja d.o.o., Klaster Nadzor d.o.o.', '12.5', '', ''],
      ['Klaster Uvoz B', 'IMP-C-2', 'Drugo Selo', '', '', '', '', ''],
      ['Klaster Uvoz C', 'IMP-C-3', 'Treće Selo', '', 'Nepostojeća grupa', '', '', ''],
      ['Klaster Uvoz C', 'IMP-C-4', 'Četvrto Selo', '', '', '', '', ''],
      ['Klaster Uvoz D', 'IMP-C-5', 'Peto Selo', '', '', 'dugačak', '', 'ST-1'],
      ['Klaster Uvoz E', 'IMP-C-6', 'Šesto Selo', '', '', '3', '', ''],
      ['Klaster Uvoz E', 'IMP-C-7', 'Sedmo Selo', '', '', '4', '', ''],
      ['', 'IMP-C-8', 'Bez klastera', '', '', '', '', ''],
    ]);
    const settlementsBefore = await settlementCount();
    const clustersBefore = await clusterCount();
    const doc = await imported('location', file, 'klasteri.csv');
    const by = (red: number) => doc.importReport.find((r) => r.red === red);
    expect(doc.importReport.filter((r) => r.success).map((r) => r.red)).toEqual([2, 3, 4]);
    expect(by(5)?.errors).toEqual([said(IMPORTS.rowError(asTyped('Klaster Uvoz C'), IMPORTS.unknownGroup(asTyped('Nepostojeća grupa'))))]);
    expect(by(6)?.errors).toEqual([said(IMPORTS.rowError(asTyped('Klaster Uvoz C'), IMPORTS.clusterNotSaved))]);
    expect(by(7)?.errors).toEqual([
      said(IMPORTS.rowError(asTyped('Klaster Uvoz D'), IMPORTS.unknownContract(asTyped('ST-1')))),
      said(IMPORTS.rowError(asTyped('Klaster Uvoz D'), CLUSTERS.mustBeNumber)),
    ]);
    expect(by(9)?.errors).toEqual([
      said(IMPORTS.rowError(asTyped('Klaster Uvoz E'), IMPORTS.conflictingValue('Индикативна дужина кластера'))),
    ]);
    expect(by(8)?.errors).toEqual([said(IMPORTS.rowError(asTyped('Klaster Uvoz E'), IMPORTS.clusterNotSaved))]);
    expect(by(10)?.errors).toEqual([said(IMPORTS.rowError(asTyped('10'), CLUSTERS.required))]);
    expect(doc).toMatchObject({ ukupno: 9, uvezeno: 3, neuspesno: 6 });
    expect(await clusterCount()).toBe(clustersBefore + 2);
    // Only the settlements of saved clusters are added.
    expect(await settlementCount()).toBe(settlementsBefore + 2);

    const [a] = await t.db.select().from(clusters).where(eq(clusters.naziv, 'Klaster Uvoz A'));
    expect(a).toMatchObject({ indikativnaDuzinaKlastera: 12.5, ugovorenaVrednostKlastera: 1000000.5 });
    const members = await t.db
      .select()
      .from(clusterSettlements)
      .where(eq(clusterSettlements.clusterId, a?.id ?? ''));
    expect(members.find((m) => m.settlementId === known.id)?.usputno).toBe(false);
    expect(members.filter((m) => m.usputno)).toHaveLength(1);
    const groupsOfA = await t.db
      .select()
      .from(clusterGroups)
      .where(eq(clusterGroups.clusterId, a?.id ?? ''));
    expect(groupsOfA.map((g) => g.groupId).sort()).toEqual([group.id, second.id].sort());
    const links = await t.db
      .select()
      .from(contractClusters)
      .where(eq(contractClusters.clusterId, a?.id ?? ''));
    expect(links).toEqual([expect.objectContaining({ contractId: contract.id, kind: 'contract' })]);
    expect(finished.id).toBeTruthy();

    const again = await imported('location', file, 'klasteri.csv');
    expect(again.uvezeno).toBe(0);
    expect(again.importReport[0]?.warnings).toEqual([said(IMPORTS.exists(`Кластер „${asTyped('Klaster Uvoz A')}“`))]);
    expect(await clusterCount()).toBe(clustersBefore + 2);
    expect(await settlementCount()).toBe(settlementsBefore + 2);

    // The fixed file brings the rest in.
    const fixed = await imported(
      'location',
      csv([
        HEADER,
        ['Klaster Uvoz C', 'IMP-C-3', 'Treće Selo', '', 'Klaster Gradnja d.o.o.', '', '', ''],
        ['Klaster Uvoz C', 'IMP-C-4', 'Četvrto Selo', '', '', '', '', ''],
      ]),
      'klasteri.csv',
    );
    expect(fixed.uvezeno).toBe(2);
  });

  it('is the Admin’s only; a manager gets the users template but not the clusters one', async () => {
    const tree = await createOrgTree(t.db);
    const token = await tokenFor(t.ctx, tree.manager);
    expect((await upload('location', csv([HEADER, ['X', '', '', '', '', '', '', '']]), 'k.csv', token)).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/files/klasteri/', token })).statusCode).toBe(403);
    const res = await t.call({ method: 'GET', url: '/api/files/korisnici/', token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="korisnici.xlsx"; filename*=UTF-8''korisnici.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]?.getRow(1).values).toEqual([undefined, 'Име', 'Презиме', 'Имејл', 'Рола', 'Група']);
  });

  it('the clusters template, filled in, imports settlements and clusters', async () => {
    const res = await t.call({ method: 'GET', url: '/api/files/klasteri', token: adminToken });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const row = header.map(
      (h) => ({ Кластер: 'Klaster Šablon', 'ID насеља': 'IMP-T-1', 'Назив насеља': 'Šablonovo' })[h as 'Кластер'] ?? '',
    );
    sheet.addRow(row);
    const filled = Buffer.from(await wb.xlsx.writeBuffer());
    expect((await imported('naselje', filled, 'klasteri.xlsx')).uvezeno).toBe(1);
    const clusterDoc = await imported('location', filled, 'klasteri.xlsx');
    expect(clusterDoc.importReport).toEqual([{ red: 2, naziv: 'Klaster Šablon — Šablonovo', success: true, warnings: [], errors: [] }]);
  });
});
