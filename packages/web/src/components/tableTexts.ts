/**
 * material-react-table's own texts (buttons, tooltips, paging), in Serbian and in the user's script
 * (issue 13 item 10): one place for every table. MRT's Serbian Cyrillic locale, converted on reading;
 * its one English word (clipboard) in Serbian.
 */
import { MRT_Localization_SR_CYRL_RS } from 'material-react-table/locales/sr-Cyrl-RS';
import { scripted } from '../scripted';

export const TABLE_TEXTS = scripted({ ...MRT_Localization_SR_CYRL_RS, copiedToClipboard: 'Копирано' }, { keep: ['language'] });
