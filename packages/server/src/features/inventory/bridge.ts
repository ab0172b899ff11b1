import { CONTRACTS, linkLocationsSchema, pageQuery, type RoleKey, searchQuery, sortQuery, unlinkLocationSchema } from '@trasa/domain';
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { parseOrBadRequest } from '../../platform/errors.js';
import { readContractForm } from '../contracts/form.js';
import type { ContractPathsBridge } from '../contracts/routes.js';
import { baseOrInventory, requestInfo, requireBase } from './access.js';
import * as contracts from './contracts.js';

/**
 * Spec 3 §7 calls inventory contracts on spec 2's contract paths (POST /api/contract with inventory: true,
 * GET /api/contract, /api/search/contract, the documents upload, the linking calls). Those routes
 * (contracts/routes.ts, links/routes.ts) let the inventory keepers through their onRequest
 * (access.ts baseOrInventory) and run one of these preValidation hooks: an inventory call is answered
 * here; any other goes on to spec 2's handler, for the route's own roles only.
 */

type Hook = preValidationAsyncHookHandler;

/** The inventory list's own `sort` keys (LIST_SORTS.inventoryContracts), not those of spec 2's contracts. */
const inventoryListQuery = pageQuery.extend(sortQuery('inventoryContracts'));
const inventorySearchQuery = searchQuery.extend(sortQuery('inventoryContracts'));

const wantsInventory = (value: unknown) => value === true || value === 'true' || value === '1';

/** The `inventory` flag of the raw query string (before the route's schema drops unknown keys). */
function queryFlag(request: FastifyRequest): boolean {
  return wantsInventory((request.query as Record<string, unknown> | undefined)?.inventory);
}

function paramId(request: FastifyRequest, name: string): string | undefined {
  const v = (request.params as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : undefined;
}

export function inventoryContractHooks(ctx: AppContext, roles: { readers: readonly RoleKey[]; writers: readonly RoleKey[] }) {
  /** GET /api/contract?inventory=true */
  const list: Hook = async (request, reply: FastifyReply) => {
    if (!queryFlag(request)) return requireBase(request, roles.readers);
    const q = parseOrBadRequest(inventoryListQuery, request.query);
    return reply.send(await contracts.listContracts(ctx, actorOf(request), q));
  };
  /** GET /api/search/contract?inventory=true */
  const search: Hook = async (request, reply) => {
    if (!queryFlag(request)) return requireBase(request, roles.readers);
    const q = parseOrBadRequest(inventorySearchQuery, request.query);
    return reply.send(await contracts.listContracts(ctx, actorOf(request), q));
  };
  /** GET /api/contract/{id} of an inventory contract */
  const detail: Hook = async (request, reply) => {
    const id = paramId(request, 'id');
    if (!(await contracts.isInventoryContract(ctx.db, id))) return requireBase(request, roles.readers);
    return reply.send(await contracts.getContract(ctx, actorOf(request), id as string));
  };
  /** POST /api/contract with inventory: true */
  const create: Hook = async (request, reply) => {
    const body = request.body as Record<string, unknown> | null | undefined;
    if (!body || typeof body !== 'object' || !wantsInventory(body.inventory)) return requireBase(request, roles.writers);
    const id = await contracts.createContract(ctx, actorOf(request), { ...body, inventory: true }, requestInfo(request));
    return reply.status(201).send({ message: CONTRACTS.created, document: id });
  };
  /** POST /api/contract/contract/{id}: an inventory contract's documents */
  const upload: Hook = async (request, reply) => {
    const id = paramId(request, 'id');
    if (!(await contracts.isInventoryContract(ctx.db, id))) return requireBase(request, roles.writers);
    contracts.assertKeeper(actorOf(request));
    const form = await readContractForm(request, ctx.files);
    return reply.send(await contracts.saveDocuments(ctx, actorOf(request), id as string, form, requestInfo(request)));
  };
  /** DELETE /api/contract/{id} of an inventory contract */
  const remove: Hook = async (request, reply) => {
    const id = paramId(request, 'id');
    if (!(await contracts.isInventoryContract(ctx.db, id))) return requireBase(request, roles.writers);
    return reply.send({ message: await contracts.deleteContract(ctx, actorOf(request), id as string, requestInfo(request)) });
  };
  /** PATCH /api/link/location-to-contract/{contractId} */
  const link: Hook = async (request, reply) => {
    const id = paramId(request, 'contractId');
    if (!(await contracts.isInventoryContract(ctx.db, id))) return requireBase(request, roles.writers);
    const body = parseOrBadRequest(linkLocationsSchema, request.body);
    return reply.send({ message: await contracts.linkLocations(ctx, actorOf(request), id as string, body.lokacije, requestInfo(request)) });
  };
  /** PATCH /api/link/unlink/{contractId} */
  const unlink: Hook = async (request, reply) => {
    const id = paramId(request, 'contractId');
    if (!(await contracts.isInventoryContract(ctx.db, id))) return requireBase(request, roles.writers);
    const body = parseOrBadRequest(unlinkLocationSchema, request.body);
    return reply.send({
      message: await contracts.unlinkLocation(ctx, actorOf(request), id as string, body.lokacija, requestInfo(request)),
    });
  };
  return { list, search, detail, create, upload, remove, link, unlink };
}

/** What app.ts hands to the contracts' and the links' routes: the hooks above and the keepers' gate. */
export const inventoryContractPaths: ContractPathsBridge = { hooks: inventoryContractHooks, gate: baseOrInventory };
