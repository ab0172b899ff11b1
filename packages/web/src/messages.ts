/**
 * The domain's texts as the web shows them: in the user's script (issue 13 item 10). Every module of the
 * web imports the message objects from here, never from '@trasa/domain' (scripts/script.test.ts checks).
 *
 * `keep` lists the entries that are not shown but compared or sent: phrases matched in the server's
 * answers, the contract status values the server stores, the inventory's sort keys and file name.
 */
import * as domain from '@trasa/domain';
import { inScript } from './script';
import { scripted } from './scripted';

export const ACCOUNT = scripted(domain.ACCOUNT, { keep: ['shortPasswordServerPhrase', 'duplicateKeyServerPhrase'] });
export const ACTIVITIES = scripted(domain.ACTIVITIES);
export const CATALOGUE = scripted(domain.CATALOGUE);
export const CLUSTERS = scripted(domain.CLUSTERS);
export const CODEBOOKS = scripted(domain.CODEBOOKS);
export const COMMENT_LIST = scripted(domain.COMMENT_LIST);
export const COMMON = scripted(domain.COMMON);
export const CONTRACTS = scripted(domain.CONTRACTS, { keep: ['statusInProgress', 'statusFinished'] });
export const IJO = scripted(domain.IJO);
export const IMPORTS = scripted(domain.IMPORTS);
export const INVENTORY = scripted(domain.INVENTORY, { keep: ['importTemplateName', 'sortNaziv', 'sortDatum'] });
export const LOGS = scripted(domain.LOGS);
export const REPORTS = scripted(domain.REPORTS);
export const SMTP = scripted(domain.SMTP);
export const TOPICS = scripted(domain.TOPICS);
export const USERS = scripted(domain.USERS);

/** The label of an activity's data item, in the current script. */
export function dataLabel(code: string, key: string): string {
  return inScript(domain.dataLabel(code, key));
}

/** The side menu of a role: the labels in the current script (keys, paths and icons as they are). */
export function menuFor(...args: Parameters<typeof domain.menuFor>): ReturnType<typeof domain.menuFor> {
  return domain.menuFor(...args).map((item) => ({ ...item, label: inScript(item.label) }));
}

/** The names the codemod (scripts/use-scripted-messages.mjs) moves from '@trasa/domain' imports to here. */
export const SCRIPTED_NAMES = [
  'ACCOUNT',
  'ACTIVITIES',
  'CATALOGUE',
  'CLUSTERS',
  'CODEBOOKS',
  'COMMENT_LIST',
  'COMMON',
  'CONTRACTS',
  'IJO',
  'IMPORTS',
  'INVENTORY',
  'LOGS',
  'REPORTS',
  'SMTP',
  'TOPICS',
  'USERS',
  'dataLabel',
  'menuFor',
] as const;
