import { desc } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/harness.js';
import { auditLogs } from '../../db/schema.js';
import { activityRow, type client, pdf, type Team } from './testing.js';

/**
 * What the flow tests share (flow.test.ts, flow.late.test.ts: one cluster driven from A1 to A27.1):
 * helpers over the running file's app and team, passed in by the file (the modules are shared between
 * a worker's files, so nothing of a file's state lives here).
 */
export function flowHelpers(t: TestApp, state: () => { team: Team; api: ReturnType<typeof client>; T: Team['tokens'] }) {
  const statusOf = async (code: string) => (await activityRow(t, state().team.cluster.id, code)).status;
  const statuses = async (codes: string[]) => Object.fromEntries(await Promise.all(codes.map(async (c) => [c, await statusOf(c)])));
  const clusterStatus = async () => {
    const res = await t.call({ method: 'GET', url: `/api/location/${state().team.cluster.id}`, token: state().T.admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().location.status as string;
  };

  /** Uploads one PDF and finishes the activity, as `token`. */
  async function uploadAndFinish(token: string, code: string, name = `${code}.pdf`) {
    const { api } = state();
    api.ok(await api.upload(token, code, [pdf(name)]));
    return api.ok(await api.status(token, code, 'Završena'));
  }

  /** The audit log's latest messages, newest first, as one text. */
  async function logText() {
    const logs = await t.db.select({ message: auditLogs.message }).from(auditLogs).orderBy(desc(auditLogs.createdAt)).limit(400);
    return logs.map((l) => l.message).join('\n');
  }

  return { statusOf, statuses, clusterStatus, uploadAndFinish, logText };
}
