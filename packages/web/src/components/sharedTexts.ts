/** Texts of the shared components and the shell that the specs do not word (issue 13: accessibility, phones). */
import { scripted } from '../scripted';
export const SHARED = scripted({
  skipToContent: 'Пређи на садржај',
  retry: 'Покушај поново',
  discardTitle: 'Одбацити унете измене?',
  discardText: 'Подаци које сте унели у овом прозору неће бити сачувани.',
  discardConfirm: 'Одбаци измене',
  discardKeep: 'Настави унос',
  rowActions: 'Акције реда',
  required: 'обавезно поље',
} as const);
