import { INVENTORY, mayUseInventory, type RoleKey, roleIn } from '@trasa/domain';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../platform/auth.js';
import { forbidden } from '../../platform/errors.js';

export type RequestInfo = { ip: string; url: string };
export const requestInfo = (r: FastifyRequest): RequestInfo => ({ ip: r.ip, url: r.url });

/** The Admin and a Zaposleni whose group type is Naručilac (spec 3 §2.10, §6); anyone else 403. */
export function mayKeepInventory(actor: Actor): boolean {
  return mayUseInventory(actor.role, actor.group?.typeCode ?? null);
}

export function assertInventoryUser(actor: Actor): void {
  if (!mayKeepInventory(actor)) throw forbidden(INVENTORY.notAllowed);
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** onRequest of every inventory route: signed in (401), then the inventory right (403). */
export function inventoryOnly(ctx: AppContext): onRequestAsyncHookHandler {
  const signedIn = ctx.auth.requireRoles(['Admin', 'Zaposleni']) as unknown as Hook;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await signedIn(request, reply);
    if (request.actor) assertInventoryUser(request.actor);
  };
}

/**
 * onRequest of a spec 2 route that also carries an inventory call (POST /api/contract with inventory,
 * the linking calls): the route's own roles, or the inventory right; the route's preValidation hook
 * decides which call it is and refuses the other callers (`requireBase`).
 */
export function baseOrInventory(ctx: AppContext, roles: readonly RoleKey[]): onRequestAsyncHookHandler {
  const signedIn = ctx.auth.requireRoles() as unknown as Hook;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await signedIn(request, reply);
    const actor = request.actor;
    if (!actor || (!roleIn(actor.role, roles) && !mayKeepInventory(actor))) throw forbidden();
  };
}

/** A spec 2 call behind baseOrInventory: only the route's own roles. */
export function requireBase(request: FastifyRequest, roles: readonly RoleKey[]): void {
  if (!request.actor || !roleIn(request.actor.role, roles)) throw forbidden();
}
