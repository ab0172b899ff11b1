import { COMMON } from '@trasa/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { said } from '../../test/harness.js';
import { addLogs } from '../../test/logData.js';
import { mailOutbox } from '../db/schema.js';
import { createOrgTree, createUser, tokenFor } from '../seed/factories.js';
import { expectRefused, get, getAs, orderIn, SERBIAN, SHUFFLED, setupSorting, t } from './sortingSetup.js';

setupSorting();
describe('mail outbox', () => {
  it('GET /api/smtp/outbox sorts by subject in Serbian order and by attempts', async () => {
    let attempts = 0;
    for (const subject of SHUFFLED) {
      await t.db
        .insert(mailOutbox)
        .values({ to: 'qmail@primer.rs', subject: `${subject} Qmail`, text: '-', status: 'failed', attempts: attempts++ });
    }
    const names = SERBIAN.map((n) => `${n} Qmail`);
    const up = await get('/api/smtp/outbox?limit=100&status=failed&sort=subject&order=asc');
    expect(up.status).toBe(200);
    expect(
      orderIn(
        up.body.outbox.map((m: { subject: string }) => m.subject),
        names,
      ),
    ).toEqual(names);
    const byAttempts = await get('/api/smtp/outbox?limit=100&status=failed&sort=attempts&order=desc');
    expect(
      orderIn(
        byAttempts.body.outbox.map((m: { subject: string }) => m.subject),
        names,
      ),
    ).toEqual([...SHUFFLED].reverse().map((n) => `${n} Qmail`));
    for (const sort of ['to', 'status', 'createdAt', 'error']) expect((await get(`/api/smtp/outbox?sort=${sort}`)).status, sort).toBe(200);
    const bad = await get('/api/smtp/outbox?sort=text');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(said(COMMON.badSort));
  });
});

/** The status and body of a call with another caller's token. */
describe('audit log', () => {
  let managerToken: string;
  let leafToken: string;
  /** The manager's rows (mid and leaf) oldest first; the other group's and the root's are outside the scope. */
  const mine: string[] = [];

  beforeAll(async () => {
    const tree = await createOrgTree(t.db, 'Qlog');
    managerToken = await tokenFor(t.ctx, tree.manager);
    leafToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id }));
    const at = (minute: number) => new Date(Date.UTC(2024, 0, 5, 9, minute, 0));
    const groupOf = (i: number) => [tree.mid, tree.leaf, tree.other, tree.root][i % 4] as { id: string; cirilica: string };
    const specs = Array.from({ length: 12 }, (_, i) => ({ message: `Zapis ${i} qlogsort`, group: groupOf(i), createdAt: at(i) }));
    await addLogs(t.db, specs);
    for (const s of specs) if (s.group.id === tree.mid.id || s.group.id === tree.leaf.id) mine.push(s.message);
  });

  const messages = (body: { logs: { message: string }[] }) => body.logs.map((l) => l.message).filter((m) => m.endsWith('qlogsort'));

  it("GET /api/log sorts by time both ways across a manager's groups, pages included; the scope stays", async () => {
    const up = await getAs(managerToken, '/api/log?limit=100&sort=createdAt&order=asc');
    expect(up.status).toBe(200);
    expect(messages(up.body)).toEqual(mine);
    const down = await getAs(managerToken, '/api/log?limit=100&sort=createdAt&order=desc');
    expect(messages(down.body)).toEqual([...mine].reverse());
    // Without `sort`: newest first, as before.
    expect(messages((await getAs(managerToken, '/api/log?limit=100')).body)).toEqual([...mine].reverse());
    // The manager's own rows are the oldest of the scope here: page 2 of 2-row pages going up.
    const second = await getAs(managerToken, '/api/log?limit=2&page=2&sort=createdAt&order=asc');
    expect(second.body.logs.map((l: { message: string }) => l.message)).toEqual(mine.slice(2, 4));
    const leaf = await getAs(leafToken, '/api/log?limit=100&sort=createdAt&order=asc');
    expect(messages(leaf.body)).toEqual(mine.filter((_, i) => i % 2 === 1));
  });

  it('GET /api/search/log sorts the matches by time; other keys and directions are refused', async () => {
    const up = await getAs(managerToken, '/api/search/log?eng=qlogsort&srb=qlogsort&sort=createdAt&order=asc');
    expect(up.status).toBe(200);
    expect(messages(up.body)).toEqual(mine);
    const down = await getAs(managerToken, '/api/search/log?eng=qlogsort&srb=qlogsort&sort=createdAt&order=desc&limit=2');
    expect(messages(down.body)).toEqual([...mine].reverse().slice(0, 2));
    expect(up.body.totalLogs).toBe(mine.length);
    await expectRefused('/api/log?sort=message');
    await expectRefused('/api/search/log?eng=a&srb=a&sort=user');
    await expectRefused('/api/log?sort=createdAt&order=ASC');
  });
});
