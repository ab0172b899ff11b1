import { IJO, mayEditIjo } from '@trasa/domain';
import type { Actor } from '../../platform/auth.js';
import { forbidden } from '../../platform/errors.js';

/**
 * Who changes the holders: the Admin and a Zaposleni of a 'ПИУ ТА' group (mayEditIjo in the domain, the
 * same rule the screen hides its buttons by). The route lets Admin and Zaposleni through; the group's
 * type is checked here, so another employee gets 403.
 */
export function assertMayEditIjo(actor: Actor): void {
  if (!mayEditIjo(actor.role, actor.group?.typeCode)) throw forbidden(IJO.notAllowed);
}
