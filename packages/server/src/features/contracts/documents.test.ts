import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { CONTRACTS } from '@trasa/domain';
import { eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { contractFiles } from '../../db/schema-clusters.js';
import { createCluster, createContract, createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { type FilePart, minimalDocx, multipartBody, samplePdf } from './testDocuments.js';

const t = useTestApp();

let admin: string;
let izv: Awaited<ReturnType<typeof createGroup>>;
let izvOther: Awaited<ReturnType<typeof createGroup>>;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  izv = await createGroup(t.db, { type: 'IZVODJAC' });
  izvOther = await createGroup(t.db, { type: 'IZVODJAC' });
});

const filesOnDisk = async () => readdir(path.join(t.ctx.config.dataDir, 'files')).catch(() => [] as string[]);
const rowsOf = (contractId: string) => t.db.select().from(contractFiles).where(eq(contractFiles.contractId, contractId));

async function upload(route: string, id: string, files: FilePart[], fields: Record<string, string | string[]> = {}, token = admin) {
  const form = await multipartBody(fields, files);
  return t.call({ method: 'POST', url: `/api/${route}/${route}/${id}`, token, ...form });
}
const pdfPart = (name = 'Уговор о извођењу радова.pdf', field = 'fajl0'): FilePart => ({
  field,
  name,
  content: samplePdf(),
  type: 'application/pdf',
});

describe('uploading documents', () => {
  it('stores a PDF and a .docx (by content), keeping the original Cyrillic names', async () => {
    const c = await createContract(t.db, { kind: 'contractIzv', groupIds: [izv.id] });
    const before = await filesOnDisk();
    const res = await upload('contractIzv', c.id, [
      pdfPart(),
      { field: 'fajl1', name: 'Анекс 1 – измене.docx', content: minimalDocx('Анекс'), type: 'application/octet-stream' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(said(CONTRACTS.edited));
    const fajlovi = res.json().contract.fajlovi;
    expect(fajlovi).toEqual([
      {
        _id: expect.any(String),
        originalnoIme: 'Уговор о извођењу радова.pdf',
        mimetype: 'application/pdf',
        size: samplePdf().length,
        createdAt: expect.any(String),
      },
      {
        _id: expect.any(String),
        originalnoIme: 'Анекс 1 – измене.docx',
        mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        size: expect.any(Number),
        createdAt: expect.any(String),
      },
    ]);
    expect((await filesOnDisk()).length).toBe(before.length + 2);
    const [log] = await t.db.select().from(auditLogs).where(like(auditLogs.message, '%dodao dokumente%Анекс 1%'));
    expect(log).toBeTruthy();
    // An empty file input (a nameless, empty part) is no document.
    const empty = await upload('contractIzv', c.id, [{ field: 'fajl0', name: '', content: Buffer.alloc(0) }]);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().contract.fajlovi).toHaveLength(2);
  });

  it('stores the good documents of an upload and names each refused one with its reason (issue 14)', async () => {
    const c = await createContract(t.db, { kind: 'contract', naziv: 'Pre' });
    const before = await filesOnDisk();
    const res = await upload(
      'contract',
      c.id,
      [
        pdfPart('dobar.pdf', 'fajl0'),
        { field: 'fajl1', name: 'ugovor.pdf', content: Buffer.from('ovo nije PDF, samo tekst'), type: 'application/pdf' },
        pdfPart('posle.pdf', 'fajl2'),
        { field: 'fajl3', name: 'skripta.exe', content: samplePdf(), type: 'application/octet-stream' },
      ],
      { naziv: 'Posle', datumPocetka: '2026-01-01', rokTrajanja: '30' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(said('Успешно измењен уговор.'));
    expect(res.json().odbijeni).toEqual([
      { originalnoIme: 'ugovor.pdf', razlog: said('Pogrešan tip fajla'), polje: 'fajl1' },
      { originalnoIme: 'skripta.exe', razlog: said('Pogrešan tip fajla'), polje: 'fajl3' },
    ]);
    expect(res.json().contract.naziv).toBe('Posle');
    expect(res.json().contract.fajlovi.map((f: { originalnoIme: string }) => f.originalnoIme)).toEqual(['dobar.pdf', 'posle.pdf']);
    expect((await filesOnDisk()).length).toBe(before.length + 2);
    expect(await rowsOf(c.id)).toHaveLength(2);
    // Every document refused: the answer says which, nothing is stored.
    const none = await upload('contract', c.id, [
      { field: 'fajl0', name: 'lazni.docx', content: Buffer.from('nije word'), type: 'application/octet-stream' },
    ]);
    expect(none.statusCode).toBe(200);
    expect(none.json().odbijeni).toEqual([{ originalnoIme: 'lazni.docx', razlog: said('Pogrešan tip fajla'), polje: 'fajl0' }]);
    // …and the message says that nothing was saved, not that the contract was edited.
    expect(none.json().message).toBe(said('Ниједан документ није сачуван.'));
    const editedOnly = await upload(
      'contract',
      c.id,
      [{ field: 'fajl0', name: 'lazni.pdf', content: Buffer.from('nije pdf'), type: 'application/pdf' }],
      { naziv: 'Opet posle', datumPocetka: '2026-01-01', rokTrajanja: '30' },
    );
    expect(editedOnly.json().message).toBe(said('Измене уговора су сачуване, али ниједан документ није сачуван.'));
    expect(editedOnly.json().contract.naziv).toBe('Opet posle');
    expect(await rowsOf(c.id)).toHaveLength(2);
    expect((await filesOnDisk()).length).toBe(before.length + 2);
  });

  it('refuses a file over 25 MB by name and keeps the others', async () => {
    const c = await createContract(t.db, { kind: 'contract' });
    const before = await filesOnDisk();
    const big = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.4\n', 0, 'latin1');
    const res = await upload('contract', c.id, [
      pdfPart('mali.pdf', 'fajl0'),
      { field: 'fajl1', name: 'veliki.pdf', content: big, type: 'application/pdf' },
      pdfPart('posle.pdf', 'fajl2'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().odbijeni).toEqual([{ originalnoIme: 'veliki.pdf', razlog: said('Fajl je prevelik'), polje: 'fajl1' }]);
    expect((await rowsOf(c.id)).map((r) => r.originalnoIme).sort()).toEqual(['mali.pdf', 'posle.pdf']);
    expect((await filesOnDisk()).length).toBe(before.length + 2);
  });

  it('a refused field still refuses the whole request, keeping none of its documents', async () => {
    const c = await createContract(t.db, { kind: 'contract', naziv: 'Pre' });
    const before = await filesOnDisk();
    const res = await upload(
      'contract',
      c.id,
      [pdfPart('dobar.pdf', 'fajl0'), { field: 'fajl1', name: 'ugovor.pdf', content: Buffer.from('tekst'), type: 'application/pdf' }],
      { naziv: 'Posle', datumPocetka: 'juče', rokTrajanja: '30' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty('datumPocetka');
    expect(await filesOnDisk()).toEqual(before);
    expect(await rowsOf(c.id)).toEqual([]);
  });

  it('refuses more than 20 files and a field the form refuses, storing nothing', async () => {
    const c = await createContract(t.db, { kind: 'contract' });
    const before = await filesOnDisk();
    const many = Array.from({ length: 21 }, (_, i) => pdfPart(`d${i}.pdf`, `fajl${i}`));
    const tooMany = await upload('contract', c.id, many);
    expect(tooMany.statusCode).toBe(400);
    const badField = await upload('contract', c.id, [pdfPart()], { naziv: 'X', datumPocetka: 'juče', rokTrajanja: '5' });
    expect(badField.statusCode).toBe(400);
    expect(badField.json().errors).toHaveProperty('datumPocetka');
    const longField = await upload('contract', c.id, [pdfPart()], {
      naziv: 'x'.repeat(100 * 1024 + 1),
      datumPocetka: '2026-01-01',
      rokTrajanja: '5',
    });
    expect(longField.statusCode).toBe(400);
    expect(await filesOnDisk()).toEqual(before);
    expect(await rowsOf(c.id)).toEqual([]);
  });

  it('refuses uploads to a finished contract (409) and to a missing one (404)', async () => {
    const done = await createContract(t.db, { kind: 'contractIzv', status: 'Završen', datumZavrsetka: '2025-06-01', groupIds: [izv.id] });
    const before = await filesOnDisk();
    const res = await upload('contractIzv', done.id, [pdfPart()]);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(said('Završen ugovor se ne može menjati.'));
    expect((await upload('contractIzv', '00000000-0000-4000-8000-000000000000', [pdfPart()])).statusCode).toBe(404);
    expect(await filesOnDisk()).toEqual(before);
    expect(await rowsOf(done.id)).toEqual([]);
  });
});

describe('downloading and removing documents', () => {
  let contract: Awaited<ReturnType<typeof createContract>>;
  let other: Awaited<ReturnType<typeof createContract>>;
  let fileId: string;
  let otherFileId: string;
  const name = 'Уговор бр. 12-2026 "коначни".pdf';

  beforeAll(async () => {
    contract = await createContract(t.db, { kind: 'contractIzv', groupIds: [izv.id] });
    other = await createContract(t.db, { kind: 'contractIzv', groupIds: [izvOther.id] });
    const res = await upload('contractIzv', contract.id, [{ field: 'fajl0', name, content: samplePdf('Konacni') }]);
    fileId = res.json().contract.fajlovi[0]._id;
    otherFileId = (await upload('contractIzv', other.id, [pdfPart()])).json().contract.fajlovi[0]._id;
    expect(name).toBeTruthy();
  });

  const download = (contractId: string, id: string, token = admin, route = 'contractIzv') =>
    t.call({ method: 'GET', url: `/api/files/${route}/${contractId}/${id}`, token });

  it('streams the file with its type and the original name (RFC 5987)', async () => {
    const res = await download(contract.id, fileId);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(samplePdf('Konacni'))).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(disposition).toContain('filename="Ugovor br. 12-2026 _konacni_.pdf"');
    const encoded = disposition.split("filename*=UTF-8''")[1] ?? '';
    expect(decodeURIComponent(encoded)).toBe('Уговор бр. 12-2026 "коначни".pdf');
  });

  it('answers 404 for a file of another contract, another kind, or a missing one', async () => {
    expect((await download(contract.id, otherFileId)).statusCode).toBe(404);
    expect((await download(other.id, fileId)).statusCode).toBe(404);
    expect((await download(contract.id, fileId, admin, 'contractNad')).statusCode).toBe(404);
    expect((await download(contract.id, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('lets those who see the contract or a cluster linked to it download; others get 404', async () => {
    const employee = await tokenFor(t.ctx, await createUser(t.db, { groupId: izv.id }));
    expect((await download(contract.id, fileId, employee)).statusCode).toBe(200);
    const stranger = await tokenFor(t.ctx, await createUser(t.db, { groupId: izvOther.id }));
    expect((await download(contract.id, fileId, stranger)).statusCode).toBe(404);
    // A Rukovodilac whose subtree is responsible for a cluster under the contract.
    const parent = await createGroup(t.db, { type: 'NADZOR' });
    const child = await createGroup(t.db, { type: 'NADZOR', parentId: parent.id });
    const manager = await tokenFor(t.ctx, await createUser(t.db, { role: 'Rukovodilac', groupId: parent.id }));
    expect((await download(contract.id, fileId, manager)).statusCode).toBe(404);
    await createCluster(t.db, { groupIds: [child.id], contract: { id: contract.id, kind: contract.kind } });
    expect((await download(contract.id, fileId, manager)).statusCode).toBe(200);
    const sees = await createGroup(t.db, { type: 'NARUCILAC', sveVideci: true });
    expect((await download(contract.id, fileId, await tokenFor(t.ctx, await createUser(t.db, { groupId: sees.id })))).statusCode).toBe(200);
    expect((await download(contract.id, fileId, await tokenFor(t.ctx, await createUser(t.db, { role: 'Gost' })))).statusCode).toBe(403);
  });

  it('removes a document (row and stored file); a finished contract keeps its documents', async () => {
    const c = await createContract(t.db, { kind: 'contract' });
    const [first, second] = (await upload('contract', c.id, [pdfPart('a.pdf', 'fajl0'), pdfPart('b.pdf', 'fajl1')])).json().contract
      .fajlovi;
    const before = await filesOnDisk();
    const del = (id: string, token = admin) => t.call({ method: 'DELETE', url: `/api/files/contract/${c.id}/${id}`, token });
    expect((await del(first._id, await tokenFor(t.ctx, await createUser(t.db, { groupId: izv.id })))).statusCode).toBe(403);
    const res = await del(first._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: said('Dokument je obrisan.') });
    expect((await filesOnDisk()).length).toBe(before.length - 1);
    expect((await rowsOf(c.id)).map((r) => r.id)).toEqual([second._id]);
    expect((await download(c.id, first._id, admin, 'contract')).statusCode).toBe(404);
    expect((await del(first._id)).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `/api/files/contract/${other.id}/${otherFileId}`, token: admin })).statusCode).toBe(404);
    const [log] = await t.db.select().from(auditLogs).where(like(auditLogs.message, '%obrisao dokument a.pdf%'));
    expect(log).toBeTruthy();

    const edit = await upload('contract', c.id, [], {
      naziv: 'Gotov',
      datumPocetka: '2025-01-01',
      rokTrajanja: '10',
      status: 'Završen',
      datumZavrsetka: '2025-01-05',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const refused = await del(second._id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(said('Završen ugovor se ne može menjati.'));
    expect(await rowsOf(c.id)).toHaveLength(1);
    expect((await download(c.id, second._id, admin, 'contract')).statusCode).toBe(200);
  });

  it('deleting a contract removes its stored files after the commit', async () => {
    const c = await createContract(t.db, { kind: 'contractIzv', groupIds: [izv.id] });
    await upload('contractIzv', c.id, [pdfPart('x.pdf', 'fajl0'), pdfPart('y.pdf', 'fajl1')]);
    const cluster = await createCluster(t.db, { contract: { id: c.id, kind: c.kind } });
    const stored = (await rowsOf(c.id)).map((r) => r.storedName);
    expect(stored).toHaveLength(2);
    const res = await t.call({ method: 'DELETE', url: `/api/contractIzv/${c.id}`, token: admin });
    expect(res.statusCode).toBe(200);
    const onDisk = await filesOnDisk();
    for (const s of stored) expect(onDisk).not.toContain(s);
    expect(await rowsOf(c.id)).toEqual([]);
    // The cluster stays, unlinked.
    const loc = await t.call({ method: 'GET', url: `/api/location/${cluster.id}`, token: admin });
    expect(loc.statusCode).toBe(200);
    expect(loc.json().location.ugovori.contractIzv).toBeNull();
  });
});
