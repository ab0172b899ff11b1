import { z } from 'zod';
import { IJO, IJO_ODGOVORAN } from '../messages/ijo.js';
import { roleIn } from '../roles.js';
import { requiredText } from './common.js';

/** POST /api/ijo, PATCH /api/ijo/{id}: the name trimmed and never empty; odgovoran defaults to 'Izvođač'. */
export const ijoSchema = z.object({
  naziv: requiredText(IJO.nameRequired, 200, IJO.nameTooLong),
  odgovoran: z.enum(IJO_ODGOVORAN, { error: IJO.odgovoranInvalid }).default('Izvođač'),
});
export type IjoBody = z.input<typeof ijoSchema>;

/**
 * Who changes the holders (spec 3 §2.9, §6: the screen is the Admin's and, through the menu, a 'ПИУ ТА'
 * employee's): the Admin, and a Zaposleni whose group's type is PIU_TA. Everyone else only reads them.
 */
export function mayEditIjo(role: string | null | undefined, groupTypeCode: string | null | undefined): boolean {
  return roleIn(role, ['Admin']) || (roleIn(role, ['Zaposleni']) && groupTypeCode === 'PIU_TA');
}
