import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/**
 * Stored files (server-behaviour.md "Imports, exports, files"): written under DATA_DIR/files with a
 * generated name, never the client's; the size limit is enforced while streaming; the type is decided
 * by the content (magic bytes) and the name's extension must fit it; the original name is kept only for
 * display and download.
 */
export type DocumentKind = 'pdf' | 'doc' | 'docx';

export const DOCUMENT_MIME: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The name's extensions each kind of content may carry (Word opens a .docx named .doc and back). */
const EXTENSIONS: Record<DocumentKind, readonly string[]> = { pdf: ['pdf'], doc: ['doc', 'docx'], docx: ['doc', 'docx'] };

const extensionOf = (name: string) => (name.includes('.') ? (name.toLowerCase().split('.').pop() ?? '') : '');

/** The name ends in an extension one of the kinds may carry (checked before the content is read). */
export function nameFits(name: string, kinds: readonly DocumentKind[]): boolean {
  return kinds.some((k) => EXTENSIONS[k].includes(extensionOf(name)));
}

export const FILE_TEXTS = {
  tooLarge: 'Fajl je prevelik',
  wrongType: 'Pogrešan tip fajla',
} as const;

export class FileRejected extends Error {}

export type StoredFile = { storedName: string; originalName: string; mimetype: string; size: number; kind: DocumentKind };

async function zipHasWordDocument(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return resolve(false);
      let found = false;
      let entries = 0;
      zip.on('entry', (e: yauzl.Entry) => {
        if (e.fileName === 'word/document.xml') found = true;
        if (found || ++entries > 2000) {
          zip.close();
          resolve(found);
          return;
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve(found));
      zip.on('error', () => resolve(false));
      zip.readEntry();
    });
  });
}

/** The document kind of a file by its content, or null. */
export async function sniffDocument(file: string): Promise<DocumentKind | null> {
  const handle = await fs.open(file, 'r');
  const head = Buffer.alloc(8);
  try {
    await handle.read(head, 0, 8, 0);
  } finally {
    await handle.close();
  }
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (head.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'doc';
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) && (await zipHasWordDocument(file))) return 'docx';
  return null;
}

/** A safe display name: no path, no control characters, at most 200 characters. */
export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = [...base]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      // Control characters, and bidirectional controls that can disguise an extension.
      const bidi = (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f;
      return code >= 0x20 && code !== 0x7f && !bidi;
    })
    .join('')
    .trim();
  return (cleaned || 'dokument').slice(0, 200);
}

export function fileStore(root: string) {
  const dir = path.join(root, 'files');
  const pathOf = (storedName: string) => {
    if (!/^[0-9a-f-]{36}$/.test(storedName)) throw new Error('invalid stored name');
    return path.join(dir, storedName);
  };
  /**
   * Streams an upload in under a generated name, refusing it past `maxBytes`; then `inspect` reads the
   * written file and answers what it is, or null to refuse it as the wrong type. A refused or failed
   * upload leaves no file behind.
   */
  async function saveInspected<T>(stream: Readable, maxBytes: number, inspect: (target: string) => Promise<T | null>) {
    await fs.mkdir(dir, { recursive: true });
    const storedName = randomUUID();
    const target = pathOf(storedName);
    let size = 0;
    const out = createWriteStream(target, { mode: 0o600 });
    try {
      await pipeline(
        stream,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > maxBytes) throw new FileRejected(FILE_TEXTS.tooLarge);
            yield chunk;
          }
        },
        out,
      );
      if ((stream as Readable & { truncated?: boolean }).truncated) throw new FileRejected(FILE_TEXTS.tooLarge);
      const found = await inspect(target);
      if (found === null) throw new FileRejected(FILE_TEXTS.wrongType);
      return { storedName, size, found };
    } catch (e) {
      // An upload that breaks off at once (a body cut in the middle of its part) fails the pipeline while
      // the file is still being opened: removed before the open completes, it would be created after and
      // stay (the fuzz suite found one). The file goes once the stream has closed.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await fs.rm(target, { force: true });
      throw e;
    }
  }
  return {
    saveInspected,
    /** Streams an upload in, refusing it past `maxBytes` or when its content is not one of `allowed`. */
    async saveDocument(
      stream: Readable,
      originalName: string,
      opts: { maxBytes: number; allowed: readonly DocumentKind[] },
    ): Promise<StoredFile> {
      // The name must say what the content is: a PDF named .exe is refused like an .exe.
      const name = displayName(originalName);
      if (!nameFits(name, opts.allowed)) throw new FileRejected(FILE_TEXTS.wrongType);
      const {
        storedName,
        size,
        found: kind,
      } = await saveInspected(stream, opts.maxBytes, async (target) => {
        const sniffed = await sniffDocument(target);
        return sniffed && opts.allowed.includes(sniffed) && nameFits(name, [sniffed]) ? sniffed : null;
      });
      return { storedName, originalName: name, mimetype: DOCUMENT_MIME[kind], size, kind };
    },
    /** A copy of a stored file under a new generated name (deleting one never touches the other). */
    async copy(storedName: string): Promise<string> {
      await fs.mkdir(dir, { recursive: true });
      const copyName = randomUUID();
      await fs.copyFile(pathOf(storedName), pathOf(copyName));
      await fs.chmod(pathOf(copyName), 0o600);
      return copyName;
    },
    open(storedName: string): Readable {
      return createReadStream(pathOf(storedName));
    },
    async remove(storedName: string): Promise<void> {
      await fs.rm(pathOf(storedName), { force: true });
    },
    async exists(storedName: string): Promise<boolean> {
      return fs
        .stat(pathOf(storedName))
        .then((s) => s.isFile())
        .catch(() => false);
    },
  };
}
export type FileStore = ReturnType<typeof fileStore>;
