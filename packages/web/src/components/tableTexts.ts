/**
 * The tables' own texts (buttons, tooltips, paging), in Serbian and in the user's script (issue 13
 * item 10): one place for every table. The wording is material-react-table's Serbian Cyrillic locale,
 * which the lists used before they got their own table, so the names the journeys and users know stay.
 */
import { scripted } from '../scripted';

export const TABLE_TEXTS = scripted(
  {
    language: 'sr-Cyrl-RS',
    rowsPerPage: 'Редова по страници',
    of: 'од',
    goToFirstPage: 'Иди на прву страницу',
    goToPreviousPage: 'Иди на прошлу страницу',
    goToNextPage: 'Иди на следећу страницу',
    goToLastPage: 'Иди на последњу страницу',
    showHideColumns: 'Прикажи/сакриј колоне',
    showAll: 'Прикажи све',
    hideAll: 'Сакриј све',
    resetOrder: 'Ресетуј поредак',
    moveUp: 'Помери горе',
    moveDown: 'Помери доле',
    toggleFullScreen: 'Укључи/искључи преко целог екрана',
    sortByColumnAsc: (column: string) => `Сортирај по ${column} растуће`,
    sortByColumnDesc: (column: string) => `Сортирај по ${column} опадајуће`,
    sortedByColumnAsc: (column: string) => `Сортирано по ${column} растуће`,
    sortedByColumnDesc: (column: string) => `Сортирано по ${column} опадајуће`,
  },
  { keep: ['language'] },
);
