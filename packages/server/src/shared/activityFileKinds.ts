import fs from 'node:fs/promises';
import yauzl from 'yauzl';

/**
 * What an activity document may be (docs/decisions.md "Activity workflow"): office documents and
 * scans, drawings and survey data the works produce. The type is decided by the content (magic bytes;
 * for zip-based formats the entries' names) and the name's extension must fit it; nothing is unpacked.
 *
 * | kind | extensions | content |
 * |---|---|---|
 * | pdf | .pdf | `%PDF-` |
 * | doc, xls | .doc, .xls (and .docx/.xlsx holding the old format) | OLE2 compound file |
 * | docx, xlsx | .docx, .xlsx (and .doc/.xls holding the new format) | zip with word/document.xml / xl/workbook.xml |
 * | zip | .zip | any zip archive |
 * | kmz | .kmz | zip with a .kml entry |
 * | jpg, png | .jpg/.jpeg, .png | JPEG / PNG signature |
 * | dwg | .dwg | `AC10xx` version header (AutoCAD R13 and later) |
 * | dxf | .dxf | ASCII DXF (`0` / `SECTION`, optional `999` comment) or binary DXF sentinel |
 * | kml | .kml | XML whose root is `<kml` |
 * | sor | .sor | Bellcore/Telcordia SR-4731 OTDR trace (`Map\0` block, or version 1.xx) |
 */
export type ActivityFileKind = 'pdf' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'zip' | 'kmz' | 'jpg' | 'png' | 'dwg' | 'dxf' | 'kml' | 'sor';

export const ACTIVITY_FILE_MIME: Record<ActivityFileKind, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
  kmz: 'application/vnd.google-earth.kmz',
  jpg: 'image/jpeg',
  png: 'image/png',
  dwg: 'image/vnd.dwg',
  dxf: 'image/vnd.dxf',
  kml: 'application/vnd.google-earth.kml+xml',
  sor: 'application/octet-stream',
};

/** The extensions the file picker offers (accept attribute) and the name must end in. */
export const ACTIVITY_FILE_EXTENSIONS = [
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'zip',
  'kmz',
  'jpg',
  'jpeg',
  'png',
  'dwg',
  'dxf',
  'kml',
  'sor',
] as const;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function hasAllowedExtension(name: string): boolean {
  return (ACTIVITY_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

/** The first entry names of a zip (up to 2000), or null when it is no readable zip. */
async function zipEntries(file: string): Promise<string[] | null> {
  return new Promise((resolve) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return resolve(null);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        if (names.length >= 2000) {
          zip.close();
          resolve(names);
          return;
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', () => resolve(null));
      zip.readEntry();
    });
  });
}

async function head(file: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function isZipHead(h: Buffer): boolean {
  return h.length >= 4 && h[0] === 0x50 && h[1] === 0x4b && ((h[2] === 3 && h[3] === 4) || (h[2] === 5 && h[3] === 6));
}

function isDxf(h: Buffer): boolean {
  if (h.subarray(0, 18).toString('latin1') === 'AutoCAD Binary DXF') return true;
  const text = h.toString('latin1');
  // Group codes and values on alternate lines: an optional 999 comment, then 0 / SECTION.
  return /^\s*(999\r?\n[^\n]*\r?\n\s*)?0\r?\n\s*SECTION\s*\r?\n/.test(text);
}

function isKml(h: Buffer): boolean {
  let text = h.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.trimStart();
  if (!text.startsWith('<?xml') && !text.startsWith('<kml')) return false;
  // The root element (after the declaration and any comments) is kml.
  const withoutProlog = text.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/^(<!--[\s\S]*?-->\s*)*/, '');
  return /^<kml[\s>]/.test(withoutProlog);
}

function isSor(h: Buffer): boolean {
  if (h.length < 8) return false;
  if (h.subarray(0, 4).toString('latin1') === 'Map\u0000') return true;
  // SR-4731 issue 1: the Map block starts with its revision number (100–199) and its size.
  const revision = h.readUInt16LE(0);
  const size = h.readUInt32LE(2);
  return revision >= 100 && revision <= 199 && size >= 8 && size < 65536;
}

/**
 * The kind of a stored file whose name ends in `.ext`, by its content, or null when the content is not
 * what the extension says (or the extension is not allowed).
 */
export async function sniffActivityFile(file: string, ext: string): Promise<ActivityFileKind | null> {
  const h = await head(file, 4096);
  switch (ext) {
    case 'pdf':
      return h.subarray(0, 5).toString('latin1') === '%PDF-' ? 'pdf' : null;
    case 'jpg':
    case 'jpeg':
      return h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff ? 'jpg' : null;
    case 'png':
      return h.subarray(0, 8).equals(PNG) ? 'png' : null;
    case 'dwg':
      return /^AC10\d\d$/.test(h.subarray(0, 6).toString('latin1')) ? 'dwg' : null;
    case 'dxf':
      return isDxf(h) ? 'dxf' : null;
    case 'kml':
      return isKml(h) ? 'kml' : null;
    case 'sor':
      return isSor(h) ? 'sor' : null;
    case 'doc':
    case 'docx':
    case 'xls':
    case 'xlsx': {
      const word = ext.startsWith('doc');
      if (h.subarray(0, 8).equals(OLE)) return word ? 'doc' : 'xls';
      if (!isZipHead(h)) return null;
      const entries = await zipEntries(file);
      if (!entries) return null;
      if (word) return entries.includes('word/document.xml') ? 'docx' : null;
      return entries.includes('xl/workbook.xml') ? 'xlsx' : null;
    }
    case 'zip':
      return isZipHead(h) && (await zipEntries(file)) !== null ? 'zip' : null;
    case 'kmz': {
      if (!isZipHead(h)) return null;
      const entries = await zipEntries(file);
      return entries?.some((n) => n.toLowerCase().endsWith('.kml')) ? 'kmz' : null;
    }
    default:
      return null;
  }
}
