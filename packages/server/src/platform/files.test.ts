import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { displayName, FILE_TEXTS, fileStore } from './files.js';

const root = await mkdtemp(path.join(os.tmpdir(), 'trasa-files-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const store = fileStore(root);
await mkdir(path.join(root, 'files'), { recursive: true });
const docs = { maxBytes: 1024 * 1024, allowed: ['pdf', 'doc', 'docx'] as const };

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('latin1');
}

describe('file store', () => {
  it('keeps a PDF under a generated name with the original name for display', async () => {
    const pdf = '%PDF-1.7\n1 0 obj<<>>endobj\n%%EOF';
    const saved = await store.saveDocument(Readable.from([Buffer.from(pdf)]), '../../etc/Ugovor 12/2026.pdf', docs);
    expect(saved).toMatchObject({ originalName: '2026.pdf', mimetype: 'application/pdf', kind: 'pdf', size: pdf.length });
    expect(saved.storedName).toMatch(/^[0-9a-f-]{36}$/);
    expect(await text(store.open(saved.storedName))).toBe(pdf);
    await store.remove(saved.storedName);
    expect(await store.exists(saved.storedName)).toBe(false);
  });

  it('refuses a file whose content is not a document, whatever its name', async () => {
    await expect(store.saveDocument(Readable.from([Buffer.from('<script>alert(1)</script>')]), 'ugovor.pdf', docs)).rejects.toThrow(
      FILE_TEXTS.wrongType,
    );
    // An xlsx is a zip too, but not a Word document.
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('x').addRow(['a']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    await expect(store.saveDocument(Readable.from([xlsx]), 'ugovor.docx', docs)).rejects.toThrow(FILE_TEXTS.wrongType);
  });

  it('refuses a document whose name does not say what it is, and leaves nothing behind', async () => {
    const pdf = () => Readable.from([Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\n%%EOF')]);
    for (const name of ['evil.exe', 'bez-ekstenzije', 'ugovor.docx', 'ugovor.pdf.exe', 'tabela.xlsx']) {
      await expect(store.saveDocument(pdf(), name, docs), name).rejects.toThrow(FILE_TEXTS.wrongType);
    }
    expect(await readdir(path.join(root, 'files'))).toEqual([]);
    // Upper case is the same extension.
    const saved = await store.saveDocument(pdf(), 'UGOVOR.PDF', docs);
    expect(saved.kind).toBe('pdf');
    await store.remove(saved.storedName);
  });

  it('stops reading past the size limit and leaves nothing behind', async () => {
    const big = Readable.from(
      (function* () {
        yield Buffer.from('%PDF-1.7\n');
        for (let i = 0; i < 100; i++) yield Buffer.alloc(64 * 1024, 0x20);
      })(),
    );
    await expect(store.saveDocument(big, 'veliki.pdf', { ...docs, maxBytes: 1024 * 1024 })).rejects.toThrow(FILE_TEXTS.tooLarge);
  });

  it('leaves nothing behind when the upload breaks off before the file is open', async () => {
    // The part's stream has already failed when the store gets it (a request cut inside its part; the
    // fuzz suite's seed -71151646), so the pipeline fails while the write stream is still opening the
    // file. Removed before the open completed, the file was created after and stayed; the store now
    // removes it once the stream has closed. One after another: without the wait 12–13 of 300 such
    // uploads left a file here (measured), none with it.
    const cut = () => {
      const part = new Readable({ read() {} });
      part.on('error', () => undefined); // the parser's listener; the store's pipeline sees the error too
      part.destroy(new Error('aborted'));
      return part;
    };
    for (let i = 0; i < 300; i++) await expect(store.saveDocument(cut(), 'ugovor.pdf', docs)).rejects.toThrow('aborted');
    expect(await readdir(path.join(root, 'files'))).toEqual([]);
  });

  it('refuses stored names that are not generated ones', () => {
    expect(() => store.open('../app-secret')).toThrow();
    expect(displayName('a\u0000b\u202efdp.exe')).toBe('abfdp.exe');
    expect(displayName('')).toBe('dokument');
  });
});
