import { ACTIVITIES, type ActivityDto, rolesFor } from '@trasa/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { type Actor, actorOf } from '../../platform/auth.js';
import { type IdempotencyDeps, idempotencyHeaders, idempotently } from '../../platform/idempotency.js';
import { activityFileStore } from '../../shared/activityFileStore.js';
import { saveActivityData } from './data.js';
import { type ActivityOptions, scopeQueryOfPerformer, todayOf } from './policy.js';
import { presentActivity, presentDetail } from './presenter.js';
import { changeStatus, resolveControl, type StepResult } from './service.js';
import { locateVisible } from './workflow.js';

const options = (r: FastifyRequest): ActivityOptions => ({ req: { ip: r.ip, url: r.url } });

/** The activity after a step, as the caller sees it now (with the scope the step was checked with). */
export function activityFor(ctx: Pick<AppContext, 'db'>, actor: Actor, result: StepResult): Promise<ActivityDto> {
  return presentActivity(ctx.db, actor, result.scope, result.activityId, todayOf(undefined));
}

const idParams = z.object({ id: z.string().max(100) });

const statusBody = z.object({
  status: z.string({ error: ACTIVITIES.statusChangeFailed }).max(50, { error: ACTIVITIES.statusChangeFailed }),
  activityId: z.string({ error: ACTIVITIES.statusChangeFailed }).max(100),
});

const controlBody = z.object({
  faults: z.boolean({ error: ACTIVITIES.statusChangeFailed }),
  ctrlId: z.string({ error: ACTIVITIES.statusChangeFailed }).max(100),
});

const dataItem = z.object({
  key: z.string().trim().min(1).max(50),
  naziv: z.string().max(200).optional(),
  vrednost: z.union([z.string().max(2000, { error: ACTIVITIES.tooLong }), z.number(), z.null()]).optional(),
  ref: z.string().max(100).nullable().optional(),
});

/**
 * A change to one activity applied once per Idempotency-Key (platform/idempotency.ts): a repeat gets the
 * first answer again while the caller still sees the activity; nothing is applied or logged twice.
 */
export function onceForActivity(
  deps: IdempotencyDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  actor: Actor,
  activityId: string,
  apply: () => Promise<unknown>,
): Promise<unknown> {
  return idempotently(deps, request, reply, actor.id, () => locateVisible(deps.db, scopeQueryOfPerformer(actor), activityId), apply);
}

/**
 * The state a change was made on (optional): the activity's status and revision as the screen showed
 * them. A stale one is refused with 409 and the reason (policy.ts assertSameState).
 */
export const stateField = z.object({ status: z.string().max(50), revizija: z.number().int().min(0).max(1_000_000_000) }).optional();
const dataBody = z.object({ podaci: z.array(dataItem).max(200), stanje: stateField });

/**
 * The activity workflow of spec 3 §7 "Activities" (docs/api/activities.md): detail, status changes,
 * control decisions and data (the uploads are files/routes.ts'). Roles: the activity screen's
 * (Zaposleni, Rukovodilac, Admin); who may act on which activity is the service's (policy.ts).
 */
export async function activityRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = ctx.auth.requireRoles(rolesFor('activity'));
  const store = activityFileStore(ctx.config.dataDir);
  const deps = { db: ctx.db, store };

  app.get('/api/activity/:id', { schema: { params: idParams }, onRequest: readers }, async (request) => {
    const actor = actorOf(request);
    // Where it is and whether the caller sees it, with the caller's scope, in one prepared statement.
    const located = await locateVisible(ctx.db, scopeQueryOfPerformer(actor), request.params.id);
    return presentDetail(ctx.db, actor, { all: located.seesAll }, located.id, todayOf(undefined));
  });

  app.post('/api/activity/activity-status', { schema: { body: statusBody }, onRequest: readers }, async (request) => {
    const actor = actorOf(request);
    const result = await changeStatus(deps, actor, request.body, options(request));
    return {
      message: result.kind === 'started' ? ACTIVITIES.started : ACTIVITIES.statusChanged,
      activity: await activityFor(ctx, actor, result),
    };
  });

  app.post('/api/activity/control', { schema: { body: controlBody }, onRequest: readers }, async (request) => {
    const actor = actorOf(request);
    const result = await resolveControl(deps, actor, request.body.ctrlId, request.body.faults, options(request));
    return { message: ACTIVITIES.statusChanged, activity: await activityFor(ctx, actor, result) };
  });

  app.patch(
    '/api/activity/:id',
    { schema: { params: idParams, body: dataBody, headers: idempotencyHeaders }, onRequest: readers },
    async (request, reply) => {
      const actor = actorOf(request);
      return onceForActivity(ctx, request, reply, actor, request.params.id, async () => {
        const result = await saveActivityData(deps, actor, request.params.id, request.body.podaci, options(request), request.body.stanje);
        return { message: ACTIVITIES.dataSaved, activity: await activityFor(ctx, actor, result) };
      });
    },
  );
}
