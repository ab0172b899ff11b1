/** Texts of spec 2 (clusters, settlements, contracts, linking, codebooks, imports, topics), verbatim. */
export const CLUSTERS = {
  required: 'Поље је обавезно',
  requiredLatin: 'Polje je obavezno',
  mustBeNumber: 'Морате унети број',
  mustBeNumberLatin: 'Morate uneti broj',
  chooseContract: 'Изаберите уговор',
  search: 'Претрага...',

  created: 'Успешно сте направили нови кластер.',
  createFailed: 'Креирање кластера неуспешно.',
  edited: 'Успешно сте изменили кластер.',
  editFailed: 'Измена кластера неуспешна.',
  deleted: 'Успешно сте обрисали кластер.',
  deleteFailed: 'Брисање кластера неуспешно.',
  deleteConfirm: 'Да ли сте сигурни?',
  deleteNote: 'Брисање кластера је трајно',
  editTitle: 'Измена кластера',
  saveChanges: 'Сачувај измене',
  cancel: 'Одустани',
  addSettlement: 'додај насеље',
  /**
   * Ours: a cluster goes only while nothing worked on it would be lost (docs/decisions.md). Counts of
   * what holds it: open topics, documents of its activities, started activities.
   */
  deleteBlocked: (held: { openTopics: number; documents: number; startedActivities: number; inventory?: number }) => {
    const parts = [
      held.openTopics > 0 ? `otvorene teme (${held.openTopics})` : '',
      held.documents > 0 ? `dokumente (${held.documents})` : '',
      held.startedActivities > 0 ? `započete aktivnosti (${held.startedActivities})` : '',
      // Spec 3 inventory: items and stocktaking lists sent to the school.
      (held.inventory ?? 0) > 0 ? `inventar (${held.inventory})` : '',
    ].filter(Boolean);
    const listed = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} i ${parts[parts.length - 1]}` : (parts[0] ?? '');
    return `Klaster se ne može obrisati: ima ${listed}.`;
  },
} as const;

export const CONTRACTS = {
  created: 'Успешно креиран уговор.',
  createFailed: 'Уговор није креиран.',
  edited: 'Успешно измењен уговор.',
  editFailed: 'Уговор није измењен.',
  deleted: 'Успешно обрисан уговор.',
  deleteFailed: 'Уговор није обрисан.',
  finishedLink: 'Није могуће повезати кластере са завршеним уговором',
  finishedLinkLatin: 'Nije moguće povezati klastere sa završenim ugovorom',
  linkFailed: 'Povezivanje klastera neuspešno.',
  unlinkFailed: 'Uklanjanje klastera neuspešno.',
  locationAdded: 'Успешно додата локација на уговор',
  locationAddFailed: 'Додавање локација неуспешно',
  locationRemoved: 'Успешно обрисана локација са уговора',
  locationRemoveFailed: 'Неуспешно брисање локације са уговора',
  finished: 'Završen ugovor se ne može menjati.',
  fileDeleted: 'Dokument je obrisan.',
  invalidGroups: 'Niste izabrali validnu opciju',
  statusInProgress: 'U toku',
  statusFinished: 'Završen',
  /** Ours (docs/decisions.md): contract numbers are unique within a kind, case and spaces aside. */
  numberTaken: 'Уговор са тим бројем већ постоји.',
  /** Ours (spec 2 §4: 'Završen' with a datumZavrsetka is finished). */
  finishDateRequired: 'Унесите датум завршетка.',
  finishBeforeStart: 'Датум завршетка не може бити пре датума почетка.',
  /** Ours: the documents of an upload that were not stored, each with its reason. */
  documentsRefused: 'Ови документи нису сачувани:',
  /** An upload whose every document was refused: said as a warning, never as a success. */
  noDocumentSaved: 'Ниједан документ није сачуван.',
  editedNoDocument: 'Измене уговора су сачуване, али ниједан документ није сачуван.',
  documentRefused: (name: string, reason: string) => `${name} — ${reason}`,
} as const;

export const CODEBOOKS = {
  priorityNazivRequired: 'Morate upisati Naziv.',
  priorityBrojRequired: 'Morate upisati Broj.',
  settlementIdRequired: 'Morate upisati ID.',
  settlementNazivRequired: 'Morate upisati Naziv.',
  numberIfGiven: 'Mora biti broj ako je unet.',
  numberMin: 'Broj mora biti >= 0',
  failed: 'Greška.',
  communicationFailed: 'Greška u komunikaciji sa serverom.',
  duplicateSettlement: (naziv: string) => `Дупликат за: ${naziv}`,
} as const;

export const IMPORTS = {
  importButton: 'Увоз',
  reportTitle: 'Резултат увоза',
  filterAll: 'Сви',
  filterErrors: 'Само грешке',
  filterWarnings: 'Само упозорења',
  close: 'Затвори',
  tooLarge: 'Документ не сме бити већи од 10 Мегабајта',
  failed: 'Неуспешно додавање документа!',
  success: 'Успешно додат документ.',
  /**
   * Spec 2 §8's 'Грешка при увозу корисника/кластера:', one form per import: the heading above the
   * report's details when rows failed (settlements come on the clusters template).
   */
  errorsHeadingOf: (model: 'user' | 'location' | 'naselje') =>
    model === 'user' ? 'Грешка при увозу корисника:' : 'Грешка при увозу кластера:',
  duplicateEmailSuffix: '(имејл већ постоји)',
  rowError: (key: string, reason: string) => `Грешка при креирању за ред: ${key} - ${reason}`,
  maxBytes: 10_000_000,
  /** Ours (docs/decisions.md "Imports"): the report's own texts. */
  templateButton: 'Преузми шаблон',
  exportCsv: 'Извоз CSV',
  exportXlsx: 'Извоз XLSX',
  columnRow: 'Ред',
  columnName: 'Назив',
  columnSuccess: 'Успешно',
  columnWarnings: 'Упозорења',
  columnErrors: 'Грешке',
  summary: (saved: number, skipped: number, failed: number) => `Увезено: ${saved}, прескочено: ${skipped}, са грешком: ${failed}.`,
  exists: (naziv: string) => `${naziv} већ постоји; ред је прескочен.`,
  duplicateInFile: 'Дупликат у фајлу.',
  missingColumn: (column: string) => `Фајл нема колону „${column}“.`,
  noRows: 'Фајл нема ниједан ред са подацима.',
  unknownGroup: (name: string) => `Група „${name}“ не постоји или је не можете изабрати.`,
  unknownRole: (name: string) => `Рола „${name}“ не постоји или је не можете доделити.`,
  unknownContract: (name: string) => `Уговор „${name}“ не постоји или је завршен.`,
  /** Ours: a name that fits more than one record names them all and picks none. */
  ambiguousRole: (name: string, matches: readonly string[]) => `Рола „${name}“ није једнозначна: одговара ролама ${matches.join(', ')}.`,
  ambiguousGroup: (name: string, matches: readonly string[]) => `Група „${name}“ није једнозначна: одговара групама ${matches.join(', ')}.`,
  ambiguousContract: (name: string, matches: readonly string[]) =>
    `Уговор „${name}“ није једнозначан: одговара уговорима ${matches.join(', ')}.`,
  groupNeeded: 'Рола захтева групу.',
  groupIgnored: 'Рола Admin и Gost немају групу; група је занемарена.',
  conflictingValue: (column: string) => `Вредност колоне „${column}“ се разликује од претходног реда истог кластера.`,
  clusterNotSaved: 'Кластер није увезен због грешака у другим његовим редовима.',
  settlementInTwoRoles: 'Насеље је у кластеру и као успутно.',
  yesNo: (column: string) => `Колона „${column}“ прима да или не.`,
} as const;

export const TOPICS = {
  closedBanner: 'Тема је затворена',
  deleteConfirm: 'Обриши тему?',
  notFound: 'Није пронађено',
  /**
   * The tooltips of the disabled edit and delete buttons: spec 2 §2 words them in English; issue 13 item 10
   * has the English tooltips in Serbian (the server's own answers below, in the same words).
   */
  closedCannotChange: 'Затворена тема се не може мењати ни брисати.',
  commentedCannotChange: 'Тема са коментарима се не може мењати ни брисати.',
  /** The server's answers for the same refusals (ours: the web shows none, spec 2 §8). */
  closedLocked: 'Zatvorena tema se ne može menjati ni brisati.',
  commentedLocked: 'Tema sa komentarima se ne može menjati ni brisati.',
  commentRequired: 'Ne možete poslati praznu poruku.',
  created: 'Tema je otvorena.',
  edited: 'Tema je izmenjena.',
  closed: 'Tema je zatvorena.',
  deleted: 'Tema je obrisana.',
  onlyResponsible: 'Samo odgovorna grupa može da komentariše.',
  /** Ours (issue 12): who may edit, delete and close a topic. */
  onlyAuthorGroup: 'Temu mogu da menjaju i brišu samo administrator i grupa autora teme.',
  onlyCloser: 'Temu mogu da zatvore samo administrator, grupa autora teme i odgovorna grupa.',
  cannotReopen: 'Zatvorena tema ne može ponovo da se otvori.',
  /** Ours: a topic goes only to a group that sees its cluster (it could not answer otherwise). */
  groupCannotSee: 'Izabrana grupa ne vidi ovaj klaster i ne može da odgovori.',
} as const;
