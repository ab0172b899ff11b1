import type { ImportModel, ImportResponse } from '@trasa/domain';
import { api, download, saveBlob } from './client';

/** Spreadsheet imports (spec 2 §7 "Imports"; docs/api/imports.md). */

export type ImportTemplate = 'korisnici' | 'klasteri';

/** POST /api/{model}/excel-import with the file in the multipart field `file`. */
export function importSpreadsheet(model: ImportModel, file: File): Promise<ImportResponse> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api(`/${model}/excel-import`, { method: 'POST', body: form });
}

/** GET /api/files/{template}/: the template as a file download. */
export async function downloadTemplate(template: ImportTemplate): Promise<void> {
  const { blob, fileName } = await download(`/files/${template}/`);
  saveBlob(blob, fileName ?? `${template}.xlsx`);
}
