import { PassThrough } from 'node:stream';
import { toScript } from '@trasa/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../platform/auth.js';
import { contentDisposition } from '../../platform/contentDisposition.js';
import { writePdf } from '../../platform/pdf.js';
import { scriptOf } from '../../platform/script.js';
import { type Cell, writeXlsx } from '../../platform/xlsxWriter.js';
import { inProgressList, notificationsList } from './activityLists.js';
import { AUDIT_LISTS } from './auditLists.js';
import { cellInScript } from './cells.js';
import { exportSnapshot, openCursor } from './cursor.js';
import { EXPORT_LISTS, type ExportList } from './lists.js';
import { REPORT_LISTS } from './reportLists.js';

const FORMATS = {
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', write: writeXlsx },
  pdf: { mime: 'application/pdf', write: writePdf },
} as const;

const formatQuery = z.object({ format: z.enum(['xlsx', 'pdf']).optional().default('xlsx') });

/** `<list>-YYYY-MM-DD-HHmm.<format>`, the time in Belgrade (the users' clock). */
export function exportFileName(list: string, format: string, now = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Belgrade',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${list}-${parts.year}-${parts.month}-${parts.day}-${parts.hour}${parts.minute}.${format}`;
}

/**
 * GET /api/export/{list}?format=xlsx|pdf&<the list's filters and search> (docs/api/exports.md): the whole
 * list as its list call would page it — same roles, visibility, filters and order — generated while the
 * rows are read from a cursor and streamed to the client. `more`: lists other features define with this
 * feature's parts and hand in at app assembly (app.ts: the inventory's, features/inventory/exports.ts).
 * The title, the headers and the cells the product words (cells.ts `ours`) are written in the request's
 * script (platform/script.ts); data as stored.
 */
export async function exportRoutes(fastify: FastifyInstance, ctx: AppContext, more: readonly ExportList[]): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const list of [
    ...EXPORT_LISTS,
    notificationsList,
    inProgressList,
    ...AUDIT_LISTS,
    ...REPORT_LISTS,
    ...more,
  ] as ExportList<z.ZodObject>[]) {
    app.get(
      `/api/export/${list.name}`,
      { schema: { querystring: list.query.extend(formatQuery.shape) }, onRequest: ctx.auth.requireRoles(list.roles) },
      async (request, reply) => {
        const { format, ...filters } = request.query as { format: keyof typeof FORMATS } & Record<string, unknown>;
        // Every read of the export in one read-only snapshot (cursor.ts), ended when the file is written.
        const snapshot = await exportSnapshot(ctx);
        let plan: Awaited<ReturnType<typeof list.plan>>;
        let rows: AsyncGenerator<unknown[][]>;
        try {
          plan = await list.plan(snapshot.ctx, actorOf(request), filters);
          rows = 'query' in plan ? await openCursor(snapshot.client, plan.query) : plan.batches();
        } catch (error) {
          await snapshot.end();
          throw error;
        }
        const script = scriptOf(request);
        const cells = plan.cells ?? ((row: unknown[]) => row as Cell[]);
        const inScript = (row: unknown[]) => cells(row).map((cell) => cellInScript(cell, script));
        const batches = (async function* () {
          for await (const batch of rows) yield batch.map(inScript);
        })();
        const title = toScript(plan.title, script);
        const columns = plan.columns.map((c) => ({ ...c, header: toScript(c.header, script) }));
        const out = new PassThrough();
        // The response may end early (client gone): stop reading and end the snapshot.
        out.on('close', () => void rows.return(undefined));
        FORMATS[format]
          .write(out, title, columns, batches)
          .then(
            () => out.end(),
            (error: unknown) => {
              request.log.error({ err: error, list: list.name }, 'export failed');
              out.destroy(error instanceof Error ? error : new Error(String(error)));
            },
          )
          .finally(() => snapshot.end());
        return reply
          .header('content-disposition', contentDisposition(exportFileName(list.name, format)))
          .header('cache-control', 'no-store')
          .type(FORMATS[format].mime)
          .send(out);
      },
    );
  }
}
