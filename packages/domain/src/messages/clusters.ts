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
  errorsHeading: 'Грешка при увозу корисника/кластера:',
  duplicateEmailSuffix: '(имејл већ постоји)',
  rowError: (key: string, reason: string) => `Грешка при креирању за ред: ${key} - ${reason}`,
  maxBytes: 10_000_000,
} as const;

export const TOPICS = {
  closedBanner: 'Тема је затворена',
  deleteConfirm: 'Обриши тему?',
  notFound: 'Није пронађено',
  closedCannotChange: 'A closed topic cannot be changed or deleted',
  commentedCannotChange: 'A topic with comments cannot be changed or deleted',
  commentRequired: 'Ne možete poslati praznu poruku.',
} as const;
