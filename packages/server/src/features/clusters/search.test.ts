import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import {
  createCluster,
  createContract,
  createGroup,
  createSettlement,
  createUser,
  setActivityState,
  tokenFor,
} from '../../seed/factories.js';

/** Issue 14: the cluster search matches the cluster's name, its settlements' names and its responsible groups' names. */

const t = useTestApp();
let admin: string;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  const sirogojno = await createSettlement(t.db, { naziv: 'Sirogojno', code: 'S-SIR' });
  const rozanstvo = await createSettlement(t.db, { naziv: 'Рожанство', code: 'S-ROZ' });
  const optika = await createGroup(t.db, { naziv: 'Optika Pretraga d.o.o.', cirilica: 'Оптика Претрага д.о.о.' });
  await createCluster(t.db, { naziv: 'Zlatibor Istok', naselja: [sirogojno.id], groupIds: [optika.id] });
  await createCluster(t.db, { naziv: 'Zlatibor Zapad', usputnaNaselja: [rozanstvo.id] });
  await createCluster(t.db, { naziv: 'Čajetina Centar' });
});

async function search(eng: string, srb: string) {
  const res = await t.call({
    method: 'GET',
    url: `/api/search/location?${new URLSearchParams({ eng, srb, page: '1', limit: '10' })}`,
    token: admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { locations: { naziv: string }[]; totalResults: number };
  expect(body.totalResults).toBe(body.locations.length);
  return body.locations.map((l) => l.naziv).sort();
}

describe('GET /api/search/location', () => {
  it('matches a settlement of the cluster (incidental ones too), in either script', async () => {
    expect(await search('сирог', 'sirog')).toEqual(['Zlatibor Istok']);
    expect(await search('rozans', 'рожанс')).toEqual(['Zlatibor Zapad']);
  });

  it('matches a responsible group by name, in either script', async () => {
    expect(await search('оптика претрага', 'optika pretraga')).toEqual(['Zlatibor Istok']);
  });

  it('still matches the cluster name, and nothing else', async () => {
    expect(await search('чајетина', 'cajetina')).toEqual(['Čajetina Centar']);
    expect(await search('zlatibor', 'златибор')).toEqual(['Zlatibor Istok', 'Zlatibor Zapad']);
    expect(await search('nema takvog', 'нема таквог')).toEqual([]);
  });
});

/**
 * A limited scope's search reads its visible clusters once (service.ts listClustersJson, `scoped`): the
 * page, total and `aktivne` must be exactly the Admin's search narrowed to what the employee sees, for
 * every sort both ways and every page — visible through a responsible group and through a contract.
 */
describe("a limited scope's search", () => {
  type Page = { locations: { _id: string; naziv: string }[]; totalResults: number; aktivne: number };
  let employee: string;
  let others: string;

  beforeAll(async () => {
    const own = await createGroup(t.db, { naziv: 'Tim Skopa Vidljivi' });
    const other = await createGroup(t.db, { naziv: 'Tim Skopa Drugi' });
    const matchGroup = await createGroup(t.db, { naziv: 'Izvođač Kopaonik' });
    const village = await createSettlement(t.db, { naziv: 'Kopaonička Reka', code: 'S-KOP' });
    const contract = await createContract(t.db, { groupIds: [own.id] });
    employee = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: own.id }));
    others = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: other.id }));
    const made: string[] = [];
    for (let i = 0; i < 14; i++) {
      const byContract = i % 3 === 0;
      const visible = i % 4 !== 3;
      const cluster = await createCluster(t.db, {
        // Matched by its own name, by a settlement or by a responsible group's name, or not at all.
        naziv: i % 5 === 0 ? `Brdo ${i}` : `Kopaonik ${String.fromCharCode(65 + ((i * 7) % 14))}${i}`,
        naselja: i % 5 === 0 ? [village.id] : [],
        groupIds: [...(!visible ? [other.id] : byContract ? [] : [own.id]), ...(i % 2 ? [matchGroup.id] : [])],
        ...(visible && byContract ? { contract } : {}),
      });
      made.push(cluster.id);
    }
    for (const id of made.filter((_, i) => i % 3 !== 2))
      await setActivityState(t.db, id, 'A1', { status: 'U toku', datumPocetka: '2026-01-10' });
    await createCluster(t.db, { naziv: 'Ravnica Bez Veze', groupIds: [own.id] });
  });

  async function get(token: string, path: string, query: Record<string, string>): Promise<Page> {
    const res = await t.call({ method: 'GET', url: `${path}?${new URLSearchParams(query)}`, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  }

  it('answers the Admin search narrowed to the visible clusters, every sort both ways, page by page', async () => {
    const seen = await get(employee, '/api/location', { page: '1', limit: '1000' });
    const visible = new Set(seen.locations.map((l) => l._id));
    expect(visible.size).toBeGreaterThan(8);
    for (const terms of [
      { eng: 'kopaon', srb: 'копаон' },
      { eng: 'brdo', srb: 'брдо' },
      { eng: 'nema', srb: 'нема' },
    ]) {
      for (const sort of [undefined, 'naziv', 'odgovoran', 'status', 'ugovor'])
        for (const order of sort ? ['asc', 'desc'] : [undefined]) {
          const q = { ...terms, ...(sort && { sort }), ...(order && { order }) };
          const all = await get(admin, '/api/search/location', { ...q, page: '1', limit: '1000' });
          const expected = all.locations.filter((l) => visible.has(l._id)).map((l) => l._id);
          const whole = await get(employee, '/api/search/location', { ...q, page: '1', limit: '1000' });
          expect(
            whole.locations.map((l) => l._id),
            JSON.stringify(q),
          ).toEqual(expected);
          expect(whole.totalResults).toBe(expected.length);
          // `aktivne` counts every visible cluster in progress, the search aside (as the plain list's).
          expect(whole.aktivne).toBe(seen.aktivne);
          const paged: string[] = [];
          for (let page = 1; page <= Math.ceil(expected.length / 3) + 1; page++) {
            const p = await get(employee, '/api/search/location', { ...q, page: String(page), limit: '3' });
            expect(p.totalResults).toBe(expected.length);
            paged.push(...p.locations.map((l) => l._id));
          }
          expect(paged).toEqual(expected);
        }
    }
    expect(seen.aktivne).toBeGreaterThan(0);
    expect(seen.aktivne).toBeLessThan(visible.size);
    // The other group's employee finds only its own clusters (the ones the first one doesn't see).
    const theirs = await get(others, '/api/search/location', { eng: 'kopaon', srb: 'копаон', page: '1', limit: '1000' });
    expect(theirs.locations.length).toBeGreaterThan(0);
    expect(theirs.locations.every((l) => !visible.has(l._id))).toBe(true);
  });
});
