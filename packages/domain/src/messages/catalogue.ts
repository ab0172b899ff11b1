/** Texts of the catalogue screen /app/aktivnosti (spec 3 §2.3) the spec does not word (docs/decisions.md). */
export const CATALOGUE = {
  saved: 'Aktivnost je sačuvana.',
  saveFailed: 'Aktivnost nije sačuvana!',
  /** A field the Admin may not change (code, responsible parties, flow, control flag, file count). */
  fixedFields: 'Šifra, odgovorni, tok, kontrola i broj fajlova aktivnosti se ne mogu menjati.',
} as const;
