import { COMMON, LOGS, type LogDto, nameSegment } from '@trasa/domain';
import { desc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { addLogs } from '../../../test/logData.js';
import { auditLogs } from '../../db/schema.js';
import { createGroup, createUser } from '../../seed/factories.js';
import {
  adminToken,
  at,
  g,
  leafToken,
  list,
  managerToken,
  messagesOf,
  otherToken,
  ours,
  setupLogs,
  t,
  tree,
  written,
} from './logsSetup.js';

setupLogs();

describe('logs', () => {
  it('lists every row for the Admin, newest first, with the spec’s fields, paged', async () => {
    const res = await list('/api/log?page=1&limit=50');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ours(body)).toEqual([...written].reverse());
    expect(body.totalExact).toBe(true);
    expect(body.totalLogs).toBe(body.logs.length);
    const leaf = body.logs.find((l: LogDto) => l.ip === '10.20.30.40');
    expect(leaf).toEqual({
      _id: expect.any(String),
      user: 'Test Testić (test@primer.rs)',
      ip: '10.20.30.40',
      message: 'Korisnik c@leaf.rs se prijavio.',
      url: '/api/user/login',
      group: tree.leaf.cirilica,
      createdAt: at(3).toISOString(),
    });
    const page2 = (await list('/api/log?page=2&limit=2')).json();
    expect(page2.logs).toHaveLength(2);
    expect(page2.logs.map((l: LogDto) => l._id)).toEqual(body.logs.slice(2, 4).map((l: LogDto) => l._id));
    expect(page2.totalLogs).toBe(body.totalLogs);
  });

  it('shows a Rukovodilac their subtree’s rows and a Zaposleni their group’s', async () => {
    expect(ours((await list('/api/log?limit=50', managerToken)).json())).toEqual([written[5], written[2], written[1]]);
    expect(ours((await list('/api/log?limit=50', leafToken)).json())).toEqual([written[5], written[2]]);
    const other = (await list('/api/log?limit=50', otherToken)).json();
    expect(ours(other)).toEqual([written[3]]);
    expect(other.totalLogs).toBe(1);
    // A search stays in the scope.
    expect(ours((await list('/api/search/log?eng=klaster', managerToken)).json())).toEqual([written[1]]);
  });

  it('filters by the group named in /app/logovi/{naziv}, either name, slashes as dashes, within the scope', async () => {
    const slashed = await createGroup(t.db, { naziv: 'Tim 1/2', cirilica: 'Тим 1/2', parentId: tree.mid.id });
    await addLogs(t.db, [{ message: 'Korisnik f@tim.rs se prijavio.', group: g(slashed), createdAt: at(7) }]);
    written.push('Korisnik f@tim.rs se prijavio.');
    const byName = (name: string, token = adminToken) => list(`/api/log?group=${encodeURIComponent(name)}&limit=50`, token);
    expect(ours((await byName(nameSegment('Тим 1/2'))).json())).toEqual(['Korisnik f@tim.rs se prijavio.']);
    expect(ours((await byName('tim 1-2')).json())).toEqual(['Korisnik f@tim.rs se prijavio.']);
    expect(ours((await byName(tree.leaf.naziv, managerToken)).json())).toEqual([written[5], written[2]]);
    // Outside the caller's scope, or no such group: nothing.
    expect((await byName(tree.root.naziv, managerToken)).json()).toEqual({ logs: [], totalLogs: 0, totalExact: true });
    expect((await byName(tree.other.cirilica, leafToken)).json().logs).toEqual([]);
    expect((await byName('Nepostojeća grupa')).json().logs).toEqual([]);
    const searched = await list(`/api/search/log?eng=prijavio&group=${encodeURIComponent(tree.leaf.cirilica)}`);
    expect(ours(searched.json())).toEqual([written[2]]);
  });

  it('searches message, user, IP and URL in both scripts, case and diacritics aside', async () => {
    const search = async (query: string, token = adminToken) => ours((await list(`/api/search/log?${query}`, token)).json());
    const both = (text: string, cyr: string) => `eng=${encodeURIComponent(text)}&srb=${encodeURIComponent(cyr)}`;
    expect(await search(both('djurdjevo', 'дјурдјево'))).toEqual([written[0]]);
    expect(await search(`eng=${encodeURIComponent('ЂУРЂЕВО')}`)).toEqual([written[0]]);
    expect(await search(`srb=${encodeURIComponent('Ћуприја')}`)).toEqual([written[3]]);
    expect(await search(both('jovic', 'јовиц'))).toEqual([written[5]]);
    expect(await search('eng=10.20.30')).toEqual([written[2]]);
    expect(await search(`eng=${encodeURIComponent('/api/location')}`)).toEqual([written[1]]);
    // % and _ match themselves.
    expect(await search(`eng=${encodeURIComponent('100%')}`)).toEqual([written[5]]);
    expect(await search(`eng=${encodeURIComponent('%')}`)).toEqual([written[5]]);
    expect(await search('eng=_')).toEqual([]);
    // Nothing typed: the plain list.
    expect((await search('eng=%20&srb=')).length).toBe(written.length);
    const paged = (await list(`/api/search/log?eng=korisnik&page=2&limit=2`)).json();
    expect(paged.logs).toHaveLength(2);
    expect(paged.totalLogs).toBeGreaterThanOrEqual(written.length - 1);
  });

  it('lets only the Admin delete, names the count in the trail, answers the spec’s message', async () => {
    const [a, b] = await addLogs(t.db, [
      { message: 'Brisanje 1', createdAt: at(30) },
      { message: 'Brisanje 2', createdAt: at(31) },
    ]);
    const ids = [a?.id as string, b?.id as string];
    const refused = await t.call({ method: 'DELETE', url: '/api/log/', payload: { logIds: ids }, token: managerToken });
    expect(refused.statusCode).toBe(403);
    const res = await t.call({ method: 'DELETE', url: '/api/log/', payload: { logIds: [...ids, ids[0]] }, token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: said(LOGS.deleted) });
    expect(await t.db.select().from(auditLogs).where(inArray(auditLogs.id, ids))).toEqual([]);
    const [newest] = await t.db.select().from(auditLogs).orderBy(desc(auditLogs.createdAt)).limit(1);
    expect(newest?.message).toMatch(/je obrisao 2 loga\.$/);
    expect(newest?.url).toBe('/api/log/');

    const again = await t.call({ method: 'DELETE', url: '/api/log/', payload: { logIds: ids }, token: adminToken });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(said(COMMON.notFound));
    const none = await t.call({ method: 'DELETE', url: '/api/log/', payload: { logIds: [] }, token: adminToken });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(said(LOGS.noneChosen));
    const bad = await t.call({ method: 'DELETE', url: '/api/log/', payload: { logIds: ['x'] }, token: adminToken });
    expect(bad.statusCode).toBe(400);
  });

  it('records sign-ins, failed ones too, in the signed-in person’s group', async () => {
    const user = await createUser(t.db, { role: 'Zaposleni', groupId: tree.leaf.id, email: 'prijava@leaf.rs' });
    const wrong = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: user.email, lozinka: 'PogresnaLozinka1' } });
    expect(wrong.statusCode).toBe(401);
    const ok = await t.call({ method: 'POST', url: '/api/user/login', payload: { email: user.email, lozinka: 'Lozinka123' } });
    expect(ok.statusCode).toBe(200);
    const rows = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.url, '/api/user/login'))
      .orderBy(desc(auditLogs.createdAt))
      .limit(2);
    expect(rows.map((r) => r.message)).toEqual(['Korisnik prijava@leaf.rs se prijavio.', 'Neuspešna prijava: prijava@leaf.rs.']);
    expect(rows[0]?.groupCirilica).toBe(tree.leaf.cirilica);
    const seen = (await list('/api/search/log?eng=prijava@leaf', leafToken)).json();
    // Read through the API: the fixed words in the reader's script (the address as typed).
    expect(messagesOf(seen)).toContain(said('Korisnik prijava@leaf.rs se prijavio.'));
  });
});
