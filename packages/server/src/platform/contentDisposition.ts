import { toLatin } from '@trasa/domain';

/** An ASCII stand-in for a file name (the `filename` parameter): Latin script, no diacritics, no quotes. */
export function asciiFileName(name: string): string {
  const latin = toLatin(name).replace(/đ/g, 'dj').replace(/Đ/g, 'Dj').normalize('NFD').replace(/\p{M}/gu, '');
  return latin.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'dokument';
}

/**
 * The Content-Disposition of every download: `attachment` with the file's name, an ASCII `filename` and the
 * exact one in `filename*` (RFC 5987/6266).
 */
export function contentDisposition(name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiFileName(name)}"; filename*=UTF-8''${encoded}`;
}
