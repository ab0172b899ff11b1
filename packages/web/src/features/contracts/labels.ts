/**
 * Labels of the contract screens that spec 2 describes but does not word (headings, field labels,
 * buttons, tabs). The spec's own texts come from @trasa/domain (CONTRACTS, CLUSTERS, COMMON); the
 * shared field names (naziv, broj, dates, status) from ../../texts (UI).
 */
import { scripted } from '../../scripted';
export const CONTRACT_LABELS = scripted({
  createContract: 'Креирај уговор',
  newContractTitle: 'Нови уговор',
  editContractTitle: 'Измена уговора',
  contractName: 'Назив уговора',
  contractNumber: 'Број уговора',
  groups: 'Групе',
  groupsOfKind: {
    contractIzv: 'Групе извођача',
    contractPro: 'Групе пројектаната',
    contractNad: 'Групе надзора',
  },
  documentCount: 'Број докумената',
  clusterCount: 'Број кластера',
  kind: 'Врста уговора',
  colour: 'Боја',

  addDocuments: 'Додај документа',
  allowedDocuments: 'Дозвољени формати: .doc, .docx, .pdf; може више докумената.',
  wrongDocumentType: 'Дозвољени су само документи .doc, .docx и .pdf.',
  newDocuments: 'Нова документа',
  documentsNotUploaded: 'Уговор је креиран, али документа нису додата.',
  removeChosenDocument: 'Уклони са списка',
  removeDocument: 'Обриши документ',
  removeDocumentConfirm: 'Обрисати документ?',
  removeDocumentNote: 'Брисање документа је трајно.',

  status: 'Статус уговора',
  finishedHelp: 'Завршен уговор са датумом завршетка више се не може мењати ни повезивати са кластерима.',

  deleteNote: 'Брисање уговора је трајно; уклањају се и његова документа и везе са кластерима.',

  linkClusters: 'Повежи кластере',
  linkedClusters: 'Повезани кластери',
  linkCluster: 'Повежи кластер',
  noLinkedClusters: 'Уговор није повезан ни са једним кластером.',
  unlink: 'Уклони са уговора',
  unlinkNote: (cluster: string, contract: string) => `Кластер „${cluster}“ биће уклоњен са уговора „${contract}“.`,
  chooseCluster: 'Изабери кластер',
  alreadyLinked: 'Већ повезан са овим уговором',
  currentContractOfKind: 'Тренутни уговор исте врсте',
  chosenClusters: (n: number) => `Изабрано кластера: ${n}`,
  noClusterChosen: 'Изаберите кластере у табели.',
  linkChosen: 'Повежи изабране',
  movesNote: 'Кластер повезан са другим уговором исте врсте прелази на овај уговор.',

  contractData: 'Подаци о уговору',
  contractNotFound: 'Уговор није пронађен.',
  otherLists: 'Листе уговора',
} as const);
